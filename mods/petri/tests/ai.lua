-- Computer players: the medium player (`ai.score`) takes the move that wins the most cells,
-- and games between computer players end with a full dish or a culture wiped out, long before
-- the turn limit.

local game, picture = helpers.game, helpers.picture

test("the medium player takes the move that wins the most cells", function()
  local g = game{
    "1.2.",
    "..22",
    "..2.",
  }
  -- Growing into B01 wins 4 cells (B01, C00, C01, C02); B00 wins 3, a jump to B02 only 2.
  g:play("medium", 1)
  expect_eq(picture(g), {
    "1.1.",
    ".112",
    "..1.",
  })
end)

test("the medium player grows rather than jumps when a jump wins nothing more", function()
  for seed = 1, 5 do
    local g = scenario.new{ seed = seed, seats = 2, board = helpers.dish{
      "1....",
      ".....",
      "....2",
    } }
    g:play("medium", 1)
    expect_eq(g:owned(1), 2, "seed " .. seed .. ": a new cell, not a jump")
    expect_eq(g:owner("A00"), 1)
  end
end)

test("medium players fill the dish or wipe a culture out, before the turn limit", function()
  for seed = 1, 3 do
    local g = scenario.new{ seed = seed, seats = 2 }
    g:play("medium", 1000)
    expect(g:over(), "seed " .. seed .. ": the game did not finish")
    expect(g:turn() < 300, "seed " .. seed .. ": the game ran to the turn limit")
    local outcome = g:outcome()
    expect_eq(outcome and outcome.result, "win", "seed " .. seed)
    ---@cast outcome meeple.Win
    local empty = 0
    for _, label in ipairs(g:labels()) do
      if g:owner(label) == nil then empty = empty + 1 end
    end
    local winner = outcome.seats[1]
    expect(empty == 0 or g:owned(3 - winner) == 0, "seed " .. seed .. ": neither full nor wiped out")
    expect(g:owned(winner) > g:owned(3 - winner), "seed " .. seed .. ": the winner holds more cells")
  end
end)
