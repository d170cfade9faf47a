-- Helpers shared by every test file of Dune 1984 (files named `_*.lua` are loaded before each
-- test file).
--
-- Pieces in setup order: 1 Paul, 2 Leto, 3 Gurney (red, seat 1, sietch D0); 4 Shaddam,
-- 5 Irulan, 6 Sardaukar (yellow, seat 2, D6); 7 Kynes, 8 Chani, 9 Stilgar (blue, seat 3, D12);
-- 10 Baron, 11 Feyd, 12 Rabban (green, seat 4, D18).

helpers.PAUL, helpers.LETO, helpers.GURNEY = 1, 2, 3
helpers.SHADDAM, helpers.IRULAN, helpers.SARDAUKAR = 4, 5, 6
helpers.KYNES, helpers.CHANI, helpers.STILGAR = 7, 8, 9
helpers.BARON, helpers.FEYD, helpers.RABBAN = 10, 11, 12

-- A four-house game with seat 1 to roll. `at` moves pieces (piece id → label); `spice` sets
-- every house's spice (default: as the game starts).
function helpers.game(options)
  options = options or {}
  local g = scenario.new{ seed = options.seed or 1, seats = options.seats or 4 }
  for piece, label in pairs(options.at or {}) do g:move_piece(piece, label) end
  if options.spice then
    for seat = 1, options.seats or 4 do g:set_resource(seat, "spice", options.spice) end
  end
  return g
end

-- Rolls the two move dice as `a` and `b` for the seat to move.
function helpers.roll(g, a, b)
  g:force_dice{ a, b }
  g:act{ action = "roll" }
end

-- The spaces `action` offers `who`, sorted.
function helpers.destinations(g, action, who)
  local out = {}
  for _, record in ipairs(g:legal()) do
    if record.action == action and record.who == who then out[#out + 1] = record.to end
  end
  table.sort(out)
  return out
end

-- The names of the actions `g:legal()` offers, each once, sorted.
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

-- Whether `g:legal()` offers an action of this name.
function helpers.offers(g, name)
  for _, record in ipairs(g:legal()) do
    if record.action == name then return true end
  end
  return false
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
function helpers.refused(g, record, fragment)
  local ok, reason = g:try(record)
  expect_eq(ok, false, "the action should be refused")
  if fragment then
    expect(reason:find(fragment, 1, true), "unexpected reason: " .. tostring(reason))
  end
end

-- Seat `seat`'s answer to the offer waiting for it.
function helpers.answer(g, seat, record)
  expect_eq(g:seat_to_act(), seat, "seat " .. seat .. " should be asked")
  record.seat = seat
  g:act(record)
end

-- Red's quiet first move: Paul to the spice field D1 by the first die (a 1, with a 3), the
-- other die left; red is then in its fight-and-buy phase.
function helpers.red_moves(g)
  helpers.roll(g, 1, 3)
  g:act{ action = "move_first", who = helpers.PAUL, to = "D1" }
  g:act{ action = "keep_die" }
end

-- Buys the equipment card `card` for the seat to move (after moving) and assigns it to `who`.
function helpers.arm(g, card, who)
  g:set_deck("equipment", { card })
  g:act{ action = "buy_equipment" }
  helpers.answer(g, g:current_seat(), { action = "assign", card = card, who = who })
end

-- Plays a quiet turn for the seat to move: rolls 1 and 2 (3, which none of red's investment
-- spaces pays on), moves `who` one space on by the first die (to a
-- space the test has made harmless), then passes.
function helpers.quiet_turn(g, who, to)
  helpers.roll(g, 1, 2)
  g:act{ action = "move_first", who = who, to = to }
  g:act{ action = "keep_die" }
  g:pass()
end
