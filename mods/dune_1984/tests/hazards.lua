-- Sand storms and worms strike every character on their space; each is resisted with Guile (a
-- die above it hits), which a house may raise for one attack at 3 spice a point. A storm costs
-- 1 Strength, a worm eliminates. The lander's house also risks its harvesters (a storm takes
-- each on 5 or 6, a worm on 4 to 6), 1 spice protecting one.

local h = helpers

test("a sand storm: a die above Guile costs 1 Strength, and an unprotected harvester is lost on 5 or 6", function()
  local g = h.game()
  h.roll(g, 2, 6)
  g:act{ action = "move_first", who = h.PAUL, to = "D2" }
  expect_eq(g:seat_to_act(), 1, "red answers for Paul")
  local figures = g:preview{ seat = 1, action = "brace", victim = h.PAUL, threat = 1, guile = 0, shelter = 0 }
  expect_near(figures["Chance to be hit"], 1 / 2, 1e-12, "4, 5 and 6 beat Guile 3")
  expect_near(figures["Harvesters lost, on average"], 1 / 3, 1e-12, "a storm takes a harvester on 5 or 6")
  g:force_dice{ 4, 5 }
  g:act{ seat = 1, action = "brace", victim = h.PAUL, threat = 1, guile = 0, shelter = 0 }
  expect_eq(g:stat(h.PAUL, "strength"), 3)
  expect_eq(g:resource(1, "harvesters"), 0)
end)

test("Guile bought for one attack, and a protected harvester, cost spice and hold", function()
  local g = h.game{ spice = 7 }
  h.roll(g, 3, 6)
  g:act{ action = "move_first", who = h.PAUL, to = "D3" }
  -- Against a worm: Guile 3 + 2 bought = 5; a 5 does not hit. The harvester is protected.
  g:force_dice{ 5 }
  g:act{ seat = 1, action = "brace", victim = h.PAUL, threat = 2, guile = 2, shelter = 1 }
  expect_eq(g:alive(h.PAUL), true)
  expect_eq(g:resource(1, "spice"), 0, "2 points of Guile at 3 and a harvester at 1")
  expect_eq(g:resource(1, "harvesters"), 1)
  expect_eq(g:stat(h.PAUL, "guile"), 3, "the bought Guile was for this attack only")
end)

test("a worm eliminates a character whose Guile the die beats; Guile 6 cannot be beaten", function()
  local g = h.game{ spice = 9 }
  h.roll(g, 3, 6)
  g:act{ action = "move_first", who = h.PAUL, to = "D3" }
  local most = 0
  for _, record in ipairs(g:legal()) do most = math.max(most, record.guile) end
  expect_eq(most, 3, "Guile is bought up to 6 and no further")
  g:force_dice{ 4, 1 }
  g:act{ seat = 1, action = "brace", victim = h.PAUL, threat = 2, guile = 0, shelter = 0 }
  expect_eq(g:alive(h.PAUL), false)
  expect_eq(g:resource(1, "harvesters"), 1, "a 1 spares the harvester")
end)

test("a stillsuit adds 1 Guile against storms and worms in the desert", function()
  local g = h.game()
  h.red_moves(g)
  h.arm(g, "stillsuit", h.LETO)
  g:pass()
  g:move_piece(h.SHADDAM, "D1")
  g:move_piece(h.LETO, "D3")
  g:set_stat(h.LETO, "guile", 3)
  h.roll(g, 2, 6)
  g:act{ action = "move_first", who = h.SHADDAM, to = "D3" }
  g:act{ seat = 1, action = "pass" }            -- no ambush
  -- The worm strikes Leto (red) and Shaddam (yellow, the lander) alike, each answered by its house.
  expect_eq(g:seat_to_act(), 1)
  local figures = g:preview{ seat = 1, action = "brace", victim = h.LETO, threat = 2, guile = 0, shelter = 0 }
  expect_near(figures["Chance to be hit"], 2 / 6, 1e-12, "Guile 3 + 1: only 5 and 6 hit")
  g:force_dice{ 4 }
  g:act{ seat = 1, action = "brace", victim = h.LETO, threat = 2, guile = 0, shelter = 0 }
  expect_eq(g:alive(h.LETO), true, "4 does not beat Guile 4")
  expect_eq(g:seat_to_act(), 2)
  g:force_dice{ 4, 1 }
  g:act{ seat = 2, action = "brace", victim = h.SHADDAM, threat = 2, guile = 0, shelter = 0 }
  expect_eq(g:alive(h.SHADDAM), true, "Shaddam's Guile is 4")
end)

-- Red gives Leto an ornithopter; on yellow's turn Shaddam lands in a sand storm on Leto's space
-- (D8), and red, asked about an ambush, lets him pass.
local function storm_on_leto_with_ornithopter()
  local g = h.game()
  h.red_moves(g)
  h.arm(g, "ornithopter", h.LETO)
  g:pass()
  g:move_piece(h.LETO, "D8")
  g:move_piece(h.SHADDAM, "D6")
  h.roll(g, 2, 6)
  g:act{ action = "move_first", who = h.SHADDAM, to = "D8" }
  g:act{ seat = 1, action = "pass" }            -- no ambush
  return g
end

test("on another house's turn an ornithopter flies its character out of a storm's way", function()
  local g = storm_on_leto_with_ornithopter()
  expect_eq(g:seat_to_act(), 1, "red may fly Leto away")
  g:force_dice{ 3 }
  g:act{ seat = 1, action = "escape", victim = h.LETO, threat = 1, to = "D0" }
  expect_eq(g:piece_space(h.LETO), "D0", "back to the red sietch")
  expect_eq(g:attached(h.LETO), { "ornithopter" }, "a 3 lands it safely")
  expect_eq(g:seat_to_act(), 2, "the storm still strikes the lander")
end)

test("declining to fly away leaves the character to brace", function()
  local g = storm_on_leto_with_ornithopter()
  g:act{ seat = 1, action = "pass" }            -- no flight
  -- The lander's answer was asked first; red's comes after it.
  g:force_dice{ 1, 1 }
  g:act{ seat = 2, action = "brace", victim = h.SHADDAM, threat = 1, guile = 0, shelter = 0 }
  expect_eq(g:seat_to_act(), 1)
  expect(h.offers(g, "brace"), "red braces Leto instead")
  g:force_dice{ 6 }
  g:act{ seat = 1, action = "brace", victim = h.LETO, threat = 1, guile = 0, shelter = 0 }
  expect_eq(g:stat(h.LETO, "strength"), 2)
  expect_eq(g:piece_space(h.LETO), "D8")
end)
