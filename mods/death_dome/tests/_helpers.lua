-- Helpers shared by every test file of Death Dome (files named `_*.lua` are loaded before each
-- test file).
--
-- Units in setup order: red (seat 1) 1 warrior C00, 2 scout C01, 3 gunner C02, 4 medic B02;
-- blue (seat 2) 5 warrior O00, 6 scout O01, 7 gunner O02, 8 medic P02; green (seat 3)
-- 9 warrior O16, 10 scout O15, 11 gunner O14, 12 medic P14; yellow (seat 4) 13 warrior C16,
-- 14 scout C15, 15 gunner C14, 16 medic B14.

helpers.RED_WARRIOR, helpers.RED_SCOUT, helpers.RED_GUNNER, helpers.RED_MEDIC = 1, 2, 3, 4
helpers.BLUE_WARRIOR, helpers.BLUE_SCOUT, helpers.BLUE_GUNNER, helpers.BLUE_MEDIC = 5, 6, 7, 8
helpers.GREEN_WARRIOR, helpers.GREEN_SCOUT, helpers.GREEN_GUNNER, helpers.GREEN_MEDIC = 9, 10, 11, 12

-- A game of `seats` teams (default 2) past the first shop: every team passes its purchase
-- turn, so red is to play the first round. `at` moves units (piece → label); `hands` sets hands
-- (seat → card ids).
function helpers.game(options)
  options = options or {}
  local seats = options.seats or 2
  local g = scenario.new{ seed = options.seed or 1, seats = seats, first = 1 }
  for _ = 1, seats do g:pass() end
  helpers.stay_put(g)
  for piece, label in pairs(options.at or {}) do g:move_piece(piece, label) end
  for seat, cards in pairs(options.hands or {}) do g:set_hand(seat, "special", cards) end
  return g
end

-- Answers every `station` offer waiting (the start of a match) by leaving the unit where it is.
function helpers.stay_put(g)
  local waiting = true
  while waiting do
    waiting = false
    for _, record in ipairs(g:legal()) do
      if record.action == "station" and record.at == g:piece_space(record.unit) then
        g:act(record)
        waiting = true
        break
      end
    end
  end
end

-- The squares `action` offers `who` as `to`, sorted.
function helpers.destinations(g, who)
  local out = {}
  for _, record in ipairs(g:legal()) do
    if record.action == "move" and record.who == who then out[#out + 1] = record.to end
  end
  table.sort(out)
  return out
end

-- Whether `list` holds `value`.
function helpers.has(list, value)
  for _, v in ipairs(list) do
    if v == value then return true end
  end
  return false
end

-- The targets `attacker` may attack (with any of its weapons), each once, sorted.
function helpers.targets(g, attacker)
  local out = {}
  for _, record in ipairs(g:legal()) do
    if record.action == "attack" and record.who == attacker and not helpers.has(out, record.target) then
      out[#out + 1] = record.target
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

-- Expects `g:try{...}` to be refused, with `fragment` in the reason when given.
function helpers.refused(g, record, fragment)
  local ok, reason = g:try(record)
  expect_eq(ok, false, "the action should be refused")
  if fragment then
    expect(reason:find(fragment, 1, true), "unexpected reason: " .. tostring(reason))
  end
end

-- An attack by `attacker` on `target` with `weapon` (default: the first item it holds, its
-- starting weapon), then both stacks: `attack_cards` committed by the attacker's team and
-- `defence_cards` by the target's, each closed by a pass.
function helpers.fight(g, attacker, target, attack_cards, defence_cards, weapon)
  g:act{ action = "attack", who = attacker, weapon = weapon or g:items(attacker)[1], target = target }
  local red = g:seat_to_act()
  for _, card in ipairs(attack_cards) do
    g:act{ action = "stack", role = 1, attacker = attacker, target = target, card = card, seat = red }
  end
  g:pass()
  local blue = g:seat_to_act()
  for _, card in ipairs(defence_cards) do
    g:act{ action = "stack", role = 2, attacker = attacker, target = target, card = card, seat = blue }
  end
  g:pass()
end
