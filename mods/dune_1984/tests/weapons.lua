-- Lasguns, shields and poison.

local h = helpers

-- Red moves Paul to the spice field D1 and arms him with each card named.
local function red_arms_paul(g, cards)
  h.red_moves(g)
  for _, card in ipairs(cards) do h.arm(g, card, h.PAUL) end
  -- As on red's next turn, before fighting: buying came after the fight.
  g:set_var("stage", 0)
end

test("a lasgun shoots an enemy 1 or 2 spaces ahead with nobody between; on 4 or more it costs 2 Strength", function()
  local g = h.game{ spice = 6 }
  red_arms_paul(g, { "lasgun" })
  g:move_piece(h.IRULAN, "D3")
  g:move_piece(h.SHADDAM, "D0")
  local targets = {}
  for _, record in ipairs(g:legal()) do
    if record.action == "shoot" then targets[#targets + 1] = record.target end
  end
  expect_eq(targets, { h.IRULAN }, "Irulan 2 ahead; Shaddam behind is out of the line of fire")
  expect_eq(g:chance{ action = "shoot", shooter = h.PAUL, target = h.IRULAN }, 0.5)
  g:force_dice{ 4 }
  g:act{ action = "shoot", shooter = h.PAUL, target = h.IRULAN }
  expect_eq(g:stat(h.IRULAN, "strength"), 2)
  expect_eq(h.offers(g, "fight"), false, "the shot was the turn's fight")
end)

test("nobody may stand between, and a shield stops the beam", function()
  local g = h.game{ spice = 6 }
  red_arms_paul(g, { "lasgun" })
  g:move_piece(h.IRULAN, "D3")
  g:move_piece(h.KYNES, "D2")
  local function targets()
    local out = {}
    for _, record in ipairs(g:legal()) do
      if record.action == "shoot" then out[#out + 1] = record.target end
    end
    return out
  end
  expect_eq(targets(), { h.KYNES }, "Kynes stands between Paul and Irulan")
  g:pass()
  -- Yellow shields Irulan; then it is red's turn to shoot again.
  h.roll(g, 1, 2)
  g:act{ action = "move_first", who = h.SHADDAM, to = "D7" }
  g:act{ action = "keep_die" }
  h.arm(g, "shield", h.IRULAN)
  g:move_piece(h.KYNES, "D12")
  g:set_turn(1)
  g:set_var("stage", 0)
  expect_eq(targets(), {}, "the shield stops the beam")
end)

test("poison, after a round won, eliminates the wounded character when a die beats its Guile", function()
  local g = h.game{ spice = 6 }
  red_arms_paul(g, { "poison" })
  g:move_piece(h.IRULAN, "D1")
  g:force_dice{ 6, 1, 1, 1, 1, 1, 1, 1 }
  g:act{ action = "fight", who = h.PAUL, foe = 2 }
  h.answer(g, 2, { action = "wound", winner = 1, victim = h.IRULAN })
  expect_eq(g:stat(h.IRULAN, "strength"), 3)
  h.answer(g, 1, { action = "poison", victim = h.IRULAN, with = h.PAUL })
  expect_eq(g:attached(h.PAUL), {}, "the poison is spent")
  expect_eq(g:deck("equipment").discard, { "poison" })
  g:force_dice{ 4 }
  h.answer(g, 2, { action = "brace", victim = h.IRULAN, threat = 3, guile = 0, shelter = 0 })
  expect_eq(g:alive(h.IRULAN), false, "4 beats Guile 3")
  expect_eq(g:stat(h.PAUL, "strength"), 5, "the fight is won")
end)

test("a poisoner may keep its poison: the fight goes on", function()
  local g = h.game{ spice = 6 }
  red_arms_paul(g, { "poison" })
  g:move_piece(h.IRULAN, "D1")
  g:force_dice{ 6, 1, 1, 1, 1, 1, 1, 1 }
  g:act{ action = "fight", who = h.PAUL, foe = 2 }
  h.answer(g, 2, { action = "wound", winner = 1, victim = h.IRULAN })
  g:force_dice{ 1, 1, 1, 1, 6, 1, 1 }
  g:act{ seat = 1, action = "pass" }
  expect_eq(g:attached(h.PAUL), { "poison" })
  expect_eq(g:seat_to_act(), 1, "the next round is rolled: red lost it")
  expect(h.offers(g, "wound"))
end)
