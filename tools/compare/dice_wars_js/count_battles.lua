-- Counts the battles of Meeple's Dice Wars games, which `meeple sim` does not report (its
-- "actions" are attacks and passes together). `run.sh` copies the dice_wars mod into target/,
-- puts this file in the copy's tests/ with @GAMES@ and @SEED@ filled in, and runs
-- `meeple test` on the copy. Not timed: only the counts are used.
--
-- The same rules and the same computer player (greedy, at every seat) as the timed
-- `meeple sim` run, but not the same games: `g:play` seeds its players differently, so the
-- games part at the first tie. Each test plays a batch (a test may start at most 1000 games)
-- and prints one JSON line.

local GAMES, SEED, BATCH, SEATS = @GAMES@, @SEED@, 250, @SEATS@

-- SplitMix64, as `meeple sim` derives game seeds (Lua 5.4 integers wrap; `>>` is logical),
-- kept below 2^63 because a scenario's seed is read as a non-negative integer.
local function derive_seed(seed, index)
  local z = seed + (index + 1) * 0x9E3779B97F4A7C15
  z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
  z = (z ~ (z >> 27)) * 0x94D049BB133111EB
  return (z ~ (z >> 31)) & 0x7FFFFFFFFFFFFFFF
end

for first = 0, GAMES - 1, BATCH do
  test(string.format("count battles %07d", first), function()
    local games, turns, actions, battles, spaces = 0, 0, 0, 0, 0
    for i = first, math.min(first + BATCH, GAMES) - 1 do
      local g = scenario.new{ seed = derive_seed(SEED, i), seats = SEATS }
      spaces = spaces + g:space_count()
      actions = actions + g:play("greedy")
      for _, e in ipairs(g:events(true)) do
        if e.event == "decided" then battles = battles + 1 end
      end
      expect(g:over(), "the game ends")
      turns = turns + g:turn()
      games = games + 1
    end
    print(string.format(
      '{"side":"meeple_count","games":%d,"turns":%d,"actions":%d,"battles":%d,"spaces":%d}',
      games, turns, actions, battles, spaces))
  end)
end
