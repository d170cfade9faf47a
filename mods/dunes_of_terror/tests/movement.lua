-- Movement: one die, at most that many steps over land, onto a free land tile; cancelling
-- after the roll forfeits the move; move, attack and buy at most once each per turn.

local game, attack, destinations, refused = helpers.game, helpers.attack, helpers.destinations, helpers.refused

--     A B C D E F
-- 00  g g g g g g
-- 01   g g w w g g      (odd rows sit half a tile to the right)
-- 02  g g g w g g
-- 03   g g g g g g
local BOARD = helpers.board{
  "gggggg",
  "ggwwgg",
  "gggwgg",
  "gggggg",
}

-- Piece 1 on C02, the enemy (piece 2) on B03, seat 1 to move with no money.
local function walker()
  return game{ board = BOARD, at = { "C02", "B03" } }
end

-- Rolls `face` for a move and returns the tiles offered.
local function roll(g, face)
  g:force_dice{ face }
  g:act{ action = "move" }
  expect_eq(g:awaiting(), "move")
  return destinations(g)
end

test("a roll of 1: the free land tiles next to the character", function()
  -- C02's neighbours: B02, D02 (water), B01, C01 (water), B03 (occupied), C03.
  local g = walker()
  expect_eq(roll(g, 1), { "B01", "B02", "C03" })
end)

test("a roll of 2: every free land tile within two steps over land", function()
  local g = walker()
  expect_eq(roll(g, 2), { "A01", "A02", "A03", "B00", "B01", "B02", "C00", "C03", "D03" })
end)

test("the walk goes round water: E02 is two steps away but three over land", function()
  local g = walker()
  expect_eq(g:neighbors("D03")[2], "E02")
  local offered = roll(g, 2)
  for _, label in ipairs(offered) do expect(label ~= "E02", "E02 offered with a roll of 2") end
  refused(g, { action = "move", to = "E02" }, "to")
  g:act{ action = "cancel" }
  g = walker()
  expect(#roll(g, 3) > 0)
  g:act{ action = "move", to = "E02" }
  expect_eq(g:piece_space(1), "E02")
end)

test("water tiles are never offered, whatever the roll", function()
  local g = walker()
  local offered = roll(g, 6)
  expect_eq(#offered, 24 - 3 - 2, "every land tile but the character's own and the enemy's")
  for _, label in ipairs(offered) do
    expect(label ~= "C01" and label ~= "D01" and label ~= "D02", label .. " is water")
  end
  refused(g, { action = "move", to = "D02" }, "to")
  refused(g, { action = "move", to = "C01" }, "to")
  expect_eq(g:piece_space(1), "C02")
end)

-- When the roll offers no tile at all, only cancelling is left; the turn goes on. (Before
-- commit c1eb732 the engine's auto-pass ended the whole turn here, as the pending move offered
-- no choice, and the unused attack and purchase were lost.)
test("a move roll with nowhere to go does not end the turn: the attack and the purchase remain", function()
  -- A00 is cut off by water (B00 and A01); the enemy on C00 is 2 steps away, in pistol range.
  local board = helpers.board{
    "gwgggg",
    "wwgggg",
    "gggggg",
  }
  local g = game{ board = board, at = { "A00", "C00" }, money = { 10, 0 } }
  expect_eq(helpers.actions(g), { "attack", "buy_ammo", "buy_weapon", "move", "pass" })
  g:force_dice{ 6 }
  g:act{ action = "move" }
  expect_eq(g:current_seat(), 1, "the turn ended on a move roll with nowhere to go")
  expect_eq(g:awaiting(), "move")
  expect_eq(destinations(g), {})
  expect_eq(helpers.actions(g), { "cancel" }, "cancelling is the only way on")
  g:act{ action = "cancel" }
  expect_eq(g:piece_space(1), "A00")
  expect_eq(helpers.actions(g), { "attack", "buy_ammo", "buy_weapon", "pass" })
end)

test("not onto an occupied tile, the enemy's or an ally's", function()
  local g = game{ board = BOARD, at = { "C02", "B03", "B02", "F00" } }
  expect_eq(roll(g, 1), { "B01", "C03" })
  refused(g, { action = "move", to = "B03" }, "to")
  refused(g, { action = "move", to = "B02" }, "to")
  g:act{ action = "move", to = "C03" }
  expect_eq(g:piece_space(1), "C03")
  expect_eq(g:piece_space(2), "B03")
  expect_eq(g:piece_space(3), "B02")
end)

test("a character may walk past another one (a mod decision), but not stop on its tile", function()
  -- A corridor of grass along row 00; the enemy on B00 stands in the way.
  local board = helpers.board{
    "ggggww",
    "wwwwww",
  }
  local g = game{ board = board, at = { "A00", "B00" } }
  expect_eq(roll(g, 1), {})
  g:act{ action = "cancel" }
  g:set_turn(1)
  expect_eq(roll(g, 2), { "C00" })
  g:act{ action = "cancel" }
  g:set_turn(1)
  expect_eq(roll(g, 3), { "C00", "D00" })
  g:act{ action = "move", to = "D00" }
  expect_eq(g:piece_space(1), "D00")
end)

test("fewer steps than rolled are allowed, more are not", function()
  local g = walker()
  roll(g, 4)
  refused(g, { action = "move", to = "F00" }, "to")
  g:act{ action = "move", to = "B01" }
  expect_eq(g:piece_space(1), "B01")
  expect_eq(helpers.events_named(g, "piece_moved"), { { event = "piece_moved", piece = 1, from = "C02", to = "B01" } })
end)

test("cancelling after the roll forfeits the move for the turn", function()
  local g = walker()
  roll(g, 3)
  g:act{ action = "cancel" }
  expect_eq(g:awaiting(), nil)
  expect_eq(g:piece_space(1), "C02")
  local moves = 0
  for _, record in ipairs(g:legal()) do
    if record.action == "move" then moves = moves + 1 end
  end
  expect_eq(moves, 0, "move is no longer offered")
  refused(g, { action = "move" }, "move")
  -- The next turn it may move again.
  g:set_turn(1)
  expect_eq(roll(g, 1), { "B01", "B02", "C03" })
end)

test("one move a turn", function()
  local g = walker()
  roll(g, 1)
  g:act{ action = "move", to = "B02" }
  refused(g, { action = "move" }, "move")
  expect_eq(helpers.actions(g), { "attack", "pass" })
end)

test("one attack a turn", function()
  local g = game{ at = { "A00", "B00" } }
  attack(g, "knife", 2, { 1 })
  expect_eq(helpers.offered(g, "attack"), {})
  refused(g, { action = "attack", weapon = "pistol" }, "attack")
  expect_eq(helpers.actions(g), { "move", "pass" })
end)

test("nothing else can be done while a roll awaits its choice", function()
  local g = game{ at = { "A00", "B00" }, money = { 30 } }
  g:force_dice{ 2 }
  g:act{ action = "move" }
  expect_eq(helpers.actions(g), { "cancel", "move" })
  refused(g, { action = "pass" })
  refused(g, { action = "attack", weapon = "knife" })
  refused(g, { action = "buy_weapon", weapon = "shotgun" })
  g:act{ action = "move", to = "C00" }
  expect_eq(helpers.actions(g), { "attack", "buy_ammo", "buy_weapon", "pass" })
end)

test("move, attack and buy each once, in any order; then the turn ends by itself", function()
  local g = game{ at = { "A00", "C00", "H07", "L05" }, money = { 10, 0, 0, 0 } }
  attack(g, "pistol", 2, { 3 })
  expect_eq(g:current_seat(), 1)
  g:act{ action = "buy_weapon", weapon = "shotgun" }
  expect_eq(g:current_seat(), 1)
  g:force_dice{ 1 }
  g:act{ action = "move" }
  g:act{ action = "move", to = "A01" }
  expect_eq(g:current_seat(), 2, "nothing is left to do")
  expect_eq(g:resource(2, "money"), 5, "the next character's turn has started")
end)
