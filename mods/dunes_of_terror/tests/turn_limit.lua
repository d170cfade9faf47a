-- The safety net: a game still going after 4000 character turns is won by the side with more
-- health left, counted over its living characters (equal health: a draw). How many characters
-- carry that health does not count: 40 over four characters loses to 100 over one.

-- Eight seats (odd seats police, even seats terrorists) with each character's health given
-- by seat (0: dead, taken off the board), and the last turn before the limit to play.
local function near_the_limit(health)
  local g = scenario.new{ seed = 1, seats = 8, board = helpers.OPEN }
  local tiles = { "A00", "C00", "E00", "G00", "I00", "K00", "A07", "L07" }
  for piece = 1, 8 do
    g:move_piece(piece, tiles[piece])
    if health[piece] == 0 then
      g:remove(piece)
    else
      g:set_stat(piece, "health", health[piece])
    end
  end
  g:set_turn(1, 4000)
  return g
end

-- Passes turn 4000 away; the game must then be over.
local function past_the_limit(g)
  g:pass()
  expect(g:over(), "the game ends once turn 4000 is done")
  local outcome = g:outcome()
  ---@cast outcome -nil
  return outcome
end

test("100 health over one character beats 40 over four", function()
  -- Police 1, 3, 5, 7 with 10 each; terrorist 2 with 100, terrorists 4, 6, 8 dead.
  local g = near_the_limit{ 10, 100, 10, 0, 10, 0, 10, 0 }
  expect_eq(g:over(), false, "the game goes on until the limit")
  local outcome = past_the_limit(g)
  expect_eq(outcome, { result = "win", seats = { 2, 4, 6, 8 } }, "the terrorists have more health left")
end)

test("more health wins whoever has more characters: 120 over four beats 100 over one", function()
  local g = near_the_limit{ 30, 100, 30, 0, 30, 0, 30, 0 }
  local outcome = past_the_limit(g)
  expect_eq(outcome, { result = "win", seats = { 1, 3, 5, 7 } }, "the police have more health left")
end)

test("health is summed over a side's living characters: 99 against 100 with two each", function()
  -- Police 1 and 3 (50 + 49), terrorists 2 and 4 (1 + 99); the others dead.
  local g = near_the_limit{ 50, 1, 49, 99, 0, 0, 0, 0 }
  local outcome = past_the_limit(g)
  expect_eq(outcome, { result = "win", seats = { 2, 4, 6, 8 } })
end)

test("equal health at the limit is a draw between every seat", function()
  -- 100 over one police character against 25 over each of four terrorists.
  local g = near_the_limit{ 100, 25, 0, 25, 0, 25, 0, 25 }
  local outcome = past_the_limit(g)
  expect_eq(outcome.result, "draw")
  ---@cast outcome meeple.Draw
  local seats = {}
  for _, share in ipairs(outcome.shares) do seats[#seats + 1] = share.seat end
  table.sort(seats)
  expect_eq(seats, { 1, 2, 3, 4, 5, 6, 7, 8 }, "the tied sides share the draw")
end)

test("the game is not decided by health before the limit", function()
  local g = near_the_limit{ 10, 100, 10, 0, 10, 0, 10, 0 }
  g:set_turn(1, 3990)
  for _ = 1, 4 do g:pass() end
  expect_eq(g:over(), false)
  expect(g:turn() < 4000, "turn " .. g:turn())
end)
