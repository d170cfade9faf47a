-- Helpers shared by every test file of Dunes of Terror (files named `_*.lua` are loaded before
-- each test file): small fixed boards, a game with the characters where a test wants them,
-- attacking with forced dice, and reading what `g:legal()` offers.
--
-- Seats alternate sides: odd seats are the police, even seats the terrorists. Setup places one
-- character per seat in seat order, so piece i is seat i's character.

-- An offset board (odd rows shifted half a tile right, six neighbours) from a picture, one
-- string per row: `g` grass, `w` water. Labels are column letter then two-digit row: `C02`.
function helpers.board(layout)
  return { kind = "offset", columns = #layout[1], rows = #layout, layout = layout,
           legend = { g = "grass", w = "water" } }
end

-- Twelve columns by eight rows of grass. Along row 00 the distance from A00 to a tile is its
-- column index (B00 is 1 step, F00 is 5, G00 is 6); L07 is 15 steps from A00.
helpers.OPEN = helpers.board{
  "gggggggggggg",
  "gggggggggggg",
  "gggggggggggg",
  "gggggggggggg",
  "gggggggggggg",
  "gggggggggggg",
  "gggggggggggg",
  "gggggggggggg",
}

-- Tiles far from row 00 and from each other, to park characters a test does not use (all
-- more than 5 steps from every tile of columns A-F of row 00, and at least 2 apart).
helpers.FAR = { "L07", "J07", "H07", "L05" }

-- A game on `board` (default OPEN) with piece i on `at[i]` (one tile per seat; `seats`
-- defaults to #at), every seat's money set to `money[seat]` (default 0), and seat 1 to move
-- with nothing done yet this turn.
function helpers.game(options)
  local seats = options.seats or #options.at
  local g = scenario.new{ seed = options.seed or 1, seats = seats, board = options.board or helpers.OPEN }
  for piece = 1, seats do
    g:move_piece(piece, options.at[piece] or helpers.FAR[piece])
  end
  local money = options.money or {}
  for seat = 1, seats do g:set_resource(seat, "money", money[seat] or 0) end
  g:set_turn(1)
  return g
end

-- Attacks `target` (a piece id) with `weapon` (an item id the acting character holds), the
-- dice forced to `faces`; returns the damage done (the target's health before minus after).
function helpers.attack(g, weapon, target, faces)
  local before = g:stat(target, "health")
  if faces then g:force_dice(faces) end
  g:act{ action = "attack", weapon = weapon }
  expect_eq(g:awaiting(), "attack", "the attack waits for its target after the roll")
  g:act{ action = "attack", weapon = weapon, target = target }
  return before - g:stat(target, "health")
end

-- The weapon argument of a legal action as an item id: a held item comes as a table naming
-- the piece and the position in its items.
local function weapon_id(g, record)
  local w = record.weapon
  if type(w) == "table" then return w.item or g:items(w.piece)[w.position] end
  return w
end

-- The weapons `g:legal()` offers for `action` ("attack", "buy_weapon" or "buy_ammo"), as item
-- ids in alphabetical order.
function helpers.offered(g, action)
  local out = {}
  for _, record in ipairs(g:legal()) do
    if record.action == action then out[#out + 1] = weapon_id(g, record) end
  end
  table.sort(out)
  return out
end

-- The names of the actions `g:legal()` offers, each once, in alphabetical order.
function helpers.actions(g)
  local seen, out = {}, {}
  for _, record in ipairs(g:legal()) do
    if not seen[record.action] then
      seen[record.action] = true
      out[#out + 1] = record.action
    end
  end
  table.sort(out)
  return out
end

-- After a move's roll: the tiles offered to move to, in alphabetical order.
function helpers.destinations(g)
  local out = {}
  for _, record in ipairs(g:legal()) do
    if record.action == "move" and record.to then out[#out + 1] = record.to end
  end
  table.sort(out)
  return out
end

-- After an attack's roll: the pieces offered as targets, in increasing order.
function helpers.targets(g)
  local out = {}
  for _, record in ipairs(g:legal()) do
    if record.action == "attack" and record.target then out[#out + 1] = record.target end
  end
  table.sort(out)
  return out
end

-- The events of the last action with the given name.
function helpers.events_named(g, name)
  local out = {}
  for _, e in ipairs(g:events()) do
    if e.event == name then out[#out + 1] = e end
  end
  return out
end

-- Expects `g:try{...}` to be refused, with `fragment` in the reason when given.
function helpers.refused(g, record, fragment, message)
  local ok, reason = g:try(record)
  expect_eq(ok, false, message or "the action should be refused")
  if fragment then
    expect(reason:find(fragment, 1, true), (message or "refused") .. ": unexpected reason: " .. tostring(reason))
  end
  return reason
end
