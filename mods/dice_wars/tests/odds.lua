-- Odds and the computer players: `chance` is the exact probability that the attacker's sum
-- beats the defender's (checked against sums worked out here), the preview shows it, and the
-- greedy player attacks when the dice it expects to destroy are at least the dice it expects
-- to lose, taking the attack worth most first.

local board, arrange = helpers.board, helpers.arrange

-- How many ways n six-sided dice make each sum: ways[s] (integers, exact).
---@param n integer
---@return table<integer, integer> ways
local function ways(n)
  local w = { [0] = 1 }
  for _ = 1, n do
    local next = {}
    for s, c in pairs(w) do
      for f = 1, 6 do next[s + f] = (next[s + f] or 0) + c end
    end
    w = next
  end
  return w
end

-- The exact probability that n attacking dice beat m defending dice (ties lose), and the
-- numerator and denominator it comes from.
local function beat(n, m)
  local a, d = ways(n), ways(m)
  local wins = 0
  for sa, ca in pairs(a) do
    for sd, cd in pairs(d) do
      if sa > sd then wins = wins + ca * cd end
    end
  end
  local total = 6 ^ (n + m)
  return wins / total, wins, math.tointeger(total)
end

-- A duel board: a (seat 1) against b (seat 2), and a spare pair c-d so the turn never ends.
-- b-d joins the pairs: a board where no territory borders an enemy would leave nobody a move
-- (every turn would end by itself until the engine's turn limit).
local duel = board({ "a", "b", "c", "d" }, { { "a", "b" }, { "c", "d" }, { "b", "d" } })
local function duel_game(n, m)
  local g = scenario.new{ seed = 1, seats = 2, board = duel }
  arrange(g, { a = { 1, n }, b = { 2, m }, c = { 1, 2 }, d = { 2, 2 } }, 2)
  return g
end

test("the sums worked out by hand", function()
  local _, wins, total = beat(1, 1)
  expect_eq({ wins, total }, { 15, 36 }, "1 against 1")
  _, wins, total = beat(2, 1)
  expect_eq({ wins, total }, { 181, 216 }, "2 against 1")
  _, wins, total = beat(1, 2)
  expect_eq({ wins, total }, { 20, 216 }, "1 against 2")
  _, wins, total = beat(2, 2)
  expect_eq({ wins, total }, { 575, 1296 }, "2 against 2")
  -- equal stacks: the chance is (1 - P(tie)) / 2
  local w8 = ways(8)
  local ties = 0
  for s, c in pairs(w8) do ties = ties + c * w8[s] end
  local p = beat(8, 8)
  expect_near(p, (1 - ties / 6 ^ 16) / 2, 1e-15)
  expect(p < 0.5, "8 against 8 is worse than even")
end)

test("chance of 1 against 1 is 15/36, 2 against 1 is 181/216", function()
  -- 1 v 1 cannot be played (an attack needs 2 dice) but its odds can still be asked for
  local g = duel_game(1, 1)
  expect_near(g:chance{ action = "attack", from = "a", to = "b" }, 15 / 36, 1e-12)
  g = duel_game(2, 1)
  expect_near(g:chance{ action = "attack", from = "a", to = "b" }, 181 / 216, 1e-12)
  g = duel_game(2, 2)
  expect_near(g:chance{ action = "attack", from = "a", to = "b" }, 575 / 1296, 1e-12)
end)

test("chance of 3 against 2, 8 against 8, 8 against 1 and 2 against 8 are exact", function()
  local cases = { { 3, 2, beat(3, 2) }, { 8, 8, beat(8, 8) }, { 8, 1, beat(8, 1) }, { 2, 8, beat(2, 8) } }
  for _, c in ipairs(cases) do
    local g = duel_game(c[1], c[2])
    expect_near(g:chance{ action = "attack", from = "a", to = "b" }, c[3], 1e-12, c[1] .. " v " .. c[2])
  end
end)

test("chance matches the exact sum for every stack size", function()
  for n = 2, 8 do
    for m = 1, 8 do
      local g = duel_game(n, m)
      local exact = beat(n, m)
      local got = g:chance{ action = "attack", from = "a", to = "b" }
      expect_near(got, exact, 1e-12, n .. " v " .. m)
      local shown = g:preview{ action = "attack", from = "a", to = "b" }
      expect_near(shown["Chance to conquer"], exact, 1e-12, "preview " .. n .. " v " .. m)
    end
  end
end)

test("the chance agrees with many forced-free battles (sanity)", function()
  -- 3 v 3 over 400 seeds: the share of wins should be near the exact chance (about 0.45)
  local exact = beat(3, 3)
  local wins = 0
  for seed = 1, 400 do
    local g = scenario.new{ seed = seed, seats = 2, board = duel }
    arrange(g, { a = { 1, 3 }, b = { 2, 3 }, c = { 1, 2 }, d = { 2, 2 } }, 2)
    g:act{ action = "attack", from = "a", to = "b" }
    if g:owner("b") == 1 then wins = wins + 1 end
  end
  expect_near(wins / 400, exact, 0.08)
end)

-- ----- the greedy (medium) player -----

-- What the computer players expect an attack of n dice against m to be worth, in dice: with
-- the chance of conquering the defender's m dice are destroyed; otherwise the attacker loses
-- all but the one die that stays.
local function worth(n, m)
  local p = beat(n, m)
  return p * m - (1 - p) * (n - 1)
end

-- Lists the legal attacks with what they are worth: { ["a>b"] = w, ... } and the best worth.
local function worths(g)
  local out, best = {}, nil
  for _, a in ipairs(g:legal()) do
    if a.action == "attack" then
      local w = worth(g:counter(a.from, "dice"), g:counter(a.to, "dice"))
      out[a.from .. ">" .. a.to] = w
      if not best or w > best then best = w end
    end
  end
  return out, best
end

-- Lets the greedy player take one action and checks it: an attack must be worth at least 0
-- dice and be the best on offer; a pass means every attack was worth less. Returns the action.
local function greedy_step(g)
  local before, best = worths(g)
  local seat = g:current_seat()
  g:play("greedy", 1)
  local acted = g:events()[1]
  expect_eq(acted.event, "acted")
  expect_eq(acted.seat, seat)
  expect(acted.action ~= "leave", "the greedy player left")
  if acted.action == "attack" then
    local w = before[acted.from .. ">" .. acted.to]
    expect(w ~= nil, "attack not listed as legal")
    expect(w >= 0, ("greedy attacked %s>%s, worth %.4f dice"):format(acted.from, acted.to, w))
    ---@cast best number
    expect_near(w, best, 1e-9, "greedy did not take the attack worth most")
  else
    expect_eq(acted.action, "pass")
    expect(best == nil or best < 0, ("greedy passed with an attack worth %.4f dice on offer"):format(best or 0))
  end
  return acted
end

test("an attack is worth its chance of destroying the defender's dice against losing its own", function()
  -- 2 v 1: 181/216 to destroy 1 die, 35/216 to lose 1
  expect_near(worth(2, 1), (181 - 35) / 216, 1e-12)
  -- equal stacks are worth attacking, one die fewer is not, at every height
  for n = 2, 8 do
    expect(worth(n, n) > 0, n .. " v " .. n)
    if n < 8 then expect(worth(n, n + 1) < 0, n .. " v " .. n + 1) end
  end
  -- 8 v 8 wins less than half the time but is still worth it: 8 dice to win, 7 to lose
  expect(beat(8, 8) < 0.5)
  expect(worth(8, 8) > 0)
end)

-- Three duels a_i (seat 1) against b_i (seat 2); the b's are linked to each other.
local star = board({ "a1", "b1", "a2", "b2", "a3", "b3" },
  { { "a1", "b1" }, { "a2", "b2" }, { "a3", "b3" }, { "b1", "b2" }, { "b2", "b3" } })

test("greedy takes the attack worth most first", function()
  local g = scenario.new{ seed = 1, seats = 2, board = star }
  -- 3 v 3 (0.27 dice), 2 v 1 (0.68), 4 v 2 (1.7)
  arrange(g, { a1 = { 1, 3 }, b1 = { 2, 3 }, a2 = { 1, 2 }, b2 = { 2, 1 }, a3 = { 1, 4 }, b3 = { 2, 2 } }, 2)
  g:force_dice{ 6, 6, 6, 6, 1, 1 }
  local acted = greedy_step(g)
  expect_eq({ acted.from, acted.to }, { "a3", "b3" })
  -- b3 (3 dice) now borders b2: 3 v 1 beats 2 v 1 and 3 v 3
  expect_near(g:chance{ action = "attack", from = "b3", to = "b2" }, beat(3, 1), 1e-12)
  g:force_dice{ 6, 6, 6, 1 }
  acted = greedy_step(g)
  expect_eq({ acted.from, acted.to }, { "b3", "b2" })
  -- left: a1 v b1 (3 v 3, below 50% but worth 0.27 dice) and b2 v b1 (2 v 3, worth less
  -- than nothing): greedy attacks with the equal stack
  g:force_dice{ 1, 1, 1, 6, 6, 6 }
  acted = greedy_step(g)
  expect_eq({ acted.from, acted.to }, { "a1", "b1" })
  -- lost: a1 is down to 1 die, and 2 v 3 is not worth it
  expect_eq(g:counter("a1", "dice"), 1)
  acted = greedy_step(g)
  expect_eq(acted.action, "pass")
end)

test("greedy passes when every attack is worth less than nothing", function()
  local g = scenario.new{ seed = 1, seats = 2, board = star }
  arrange(g, { a1 = { 1, 2 }, b1 = { 2, 3 }, a2 = { 1, 7 }, b2 = { 2, 8 }, a3 = { 1, 4 }, b3 = { 2, 5 } }, 2)
  local _, best = worths(g)
  expect(best < 0)
  local acted = greedy_step(g)
  expect_eq(acted.action, "pass")
  expect_eq(g:current_seat(), 2)
end)

test("greedy attacks with a stack as high as the defender's, not one lower: 4 v 5, 4 v 4, 8 v 8", function()
  for _, case in ipairs{ { 4, 5, "pass" }, { 4, 4, "attack" }, { 7, 8, "pass" }, { 8, 8, "attack" } } do
    local g = scenario.new{ seed = 1, seats = 2, board = duel }
    arrange(g, { a = { 1, case[1] }, b = { 2, case[2] }, c = { 1, 1 }, d = { 2, 2 } }, 2)
    local acted = greedy_step(g)
    expect_eq(acted.action, case[3], case[1] .. " v " .. case[2])
  end
end)

test("stacks of 8 against 8 everywhere: greedy still attacks, so the game moves on", function()
  -- The position two careful players used to freeze in until the turn limit.
  local g = scenario.new{ seed = 1, seats = 2, board = star }
  arrange(g, { a1 = { 1, 8 }, b1 = { 2, 8 }, a2 = { 1, 8 }, b2 = { 2, 8 }, a3 = { 1, 8 }, b3 = { 2, 8 } }, 2)
  g:set_resource(1, "reserve", 64)
  g:set_resource(2, "reserve", 64)
  expect_eq(greedy_step(g).action, "attack")
end)

test("in whole greedy games every attack is worth at least nothing and is the best", function()
  for _, case in ipairs{ { 1, 4 }, { 2, 3 }, { 3, 6 } } do
    local g = scenario.new{ seed = case[1], seats = case[2] }
    local attacks, steps = 0, 0
    while not g:over() and steps < 600 do
      local acted = greedy_step(g)
      if acted.action == "attack" then attacks = attacks + 1 end
      steps = steps + 1
    end
    expect(attacks > 20, "only " .. attacks .. " attacks in seed " .. case[1])
  end
end)

test("the random player picks among legal actions only", function()
  local g = scenario.new{ seed = 8, seats = 3 }
  g:play("random", 300)
  for _, e in ipairs(g:events(true)) do
    if e.event == "acted" then
      expect(e.action == "attack" or e.action == "pass" or e.action == "leave", e.action)
    end
  end
  expect_eq(g:replay_hash(), g:hash(), "every random action replays as legal")
end)
