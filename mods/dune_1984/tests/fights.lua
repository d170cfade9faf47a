-- Fights and ambushes: each side rolls a die per point of Strength on the space (6 at most),
-- the highest single die wins the round, a tie is rolled again; the loser chooses which of its
-- characters loses 1 Strength; on until one side has nobody left. The winners gain 1 Strength
-- each and take the fallen's equipment.

local h = helpers

-- Red (to move) lands Gurney (Strength 5) on D4, where yellow's Irulan (Strength 4) stands;
-- yellow lets it pass (no ambush), and the spice field pays red.
local function gurney_meets_irulan(g)
  g:move_piece(h.IRULAN, "D4")
  h.roll(g, 4, 6)
  g:act{ action = "move_first", who = h.GURNEY, to = "D4" }
  expect_eq(g:seat_to_act(), 2, "yellow is asked whether it ambushes")
  g:act{ seat = 2, action = "pass" }
  g:act{ action = "keep_die" }
end

test("a fight: the highest single die wins each round, the loser chooses its wound, a tie is rolled again", function()
  local g = h.game()
  gurney_meets_irulan(g)
  expect_eq(g:resource(1, "spice"), 3 + 1, "declined: the space's directions follow")
  -- Round 1: red's five dice against yellow's four; 6 beats 5.
  g:force_dice{ 6, 1, 1, 1, 1, 5, 5, 5, 5 }
  g:act{ action = "fight", who = h.GURNEY, foe = 2 }
  local first = h.events_named(g, "rolled")
  expect_eq({ #first[1].faces, #first[2].faces }, { 5, 4 }, "a die per point of Strength")
  -- Round 2 is rolled as soon as yellow has chosen: five dice against three; 3 beats 2.
  g:force_dice{ 2, 2, 2, 2, 2, 3, 1, 1 }
  h.answer(g, 2, { action = "wound", winner = 1, victim = h.IRULAN })
  expect_eq(g:stat(h.IRULAN, "strength"), 3)
  local second = h.events_named(g, "rolled")
  expect_eq({ #second[1].faces, #second[2].faces }, { 5, 3 }, "Irulan set a die aside")
  expect_eq(g:seat_to_act(), 1, "red lost the round: red chooses its wound")
  expect_eq(g:legal(), { { seat = 1, action = "wound", winner = 2, victim = h.GURNEY } })
end)

test("the text's fight to the end: the loser of each round sets a die aside, the winner gains 1 Strength", function()
  local g = h.game()
  gurney_meets_irulan(g)
  g:force_dice{ 6, 1, 1, 1, 1, 5, 5, 5, 5 }     -- red wins: Irulan 4 → 3
  g:act{ action = "fight", who = h.GURNEY, foe = 2 }
  g:force_dice{ 2, 2, 2, 2, 2, 3, 1, 1 }        -- yellow wins with 3 dice: Gurney 5 → 4
  h.answer(g, 2, { action = "wound", winner = 1, victim = h.IRULAN })
  g:force_dice{ 4, 1, 1, 1, 4, 1, 1 }           -- 4 dice against 3: a tie
  h.answer(g, 1, { action = "wound", winner = 2, victim = h.GURNEY })
  expect_eq(g:stat(h.GURNEY, "strength"), 4)
  g:force_dice{ 6, 1, 1, 1, 1, 1, 1 }           -- rolled again: red wins, Irulan 3 → 2
  h.answer(g, 1, { action = "roll_again" })
  g:force_dice{ 6, 1, 1, 1, 1, 1 }              -- Irulan 3 → 2, then red wins again
  h.answer(g, 2, { action = "wound", winner = 1, victim = h.IRULAN })
  g:force_dice{ 6, 1, 1, 1, 1 }                 -- Irulan 2 → 1, then red wins again
  h.answer(g, 2, { action = "wound", winner = 1, victim = h.IRULAN })
  h.answer(g, 2, { action = "wound", winner = 1, victim = h.IRULAN })
  expect_eq(g:alive(h.IRULAN), false, "at 0 Strength Irulan is eliminated")
  expect_eq(g:stat(h.GURNEY, "strength"), 5, "the winner gains 1 Strength")
  expect_eq(g:resource(2, "fight_side"), 0, "the fight is over")
  expect_eq(g:counter("D4", "battle"), 0)
  expect_eq(h.offers(g, "fight"), false, "one fight a turn")
end)

test("several characters fight together: their Strength adds up to 6 dice at most, each winner gains 1", function()
  local g = h.game()
  g:move_piece(h.PAUL, "D4")
  g:move_piece(h.LETO, "D4")
  g:move_piece(h.SARDAUKAR, "D5")
  h.roll(g, 1, 6)
  g:act{ action = "move_first", who = h.PAUL, to = "D5" }
  g:act{ seat = 2, action = "pass" }
  g:act{ action = "move_second", who = h.LETO, to = "D10" }
  -- Paul alone on D5 (4 dice) against the Sardaukar (5).
  g:set_stat(h.SARDAUKAR, "strength", 1)
  g:move_piece(h.GURNEY, "D5")
  g:force_dice{ 6, 1, 1, 1, 1, 1, 5 }           -- 4 + 5 = 9 Strength: 6 dice; 1 against
  g:act{ action = "fight", who = h.PAUL, foe = 2 }
  local rolled = h.events_named(g, "rolled")
  expect_eq(#rolled[1].faces, 6, "Paul and Gurney roll 6 dice, not 9")
  expect_eq(#rolled[2].faces, 1)
  h.answer(g, 2, { action = "wound", winner = 1, victim = h.SARDAUKAR })
  expect_eq(g:alive(h.SARDAUKAR), false)
  expect_eq(g:stat(h.PAUL, "strength"), 5)
  expect_eq(g:stat(h.GURNEY, "strength"), 6, "both winners gain 1")
end)

test("an ambush is fought before the space's directions, which follow if the mover wins", function()
  local g = h.game()
  g:move_piece(h.IRULAN, "D4")
  h.roll(g, 4, 6)
  g:act{ action = "move_first", who = h.PAUL, to = "D4" }
  expect_eq(g:stat(h.PAUL, "waiting"), 1)
  g:force_dice{ 1, 1, 1, 1, 6, 1, 1, 1 }        -- yellow (ambusher) 1 against red's 6
  h.answer(g, 2, { action = "ambush", mover = h.PAUL })
  expect_eq(g:resource(1, "spice"), 3, "no spice until the ambush is fought")
  for _ = 1, 3 do
    g:force_dice{ 1, 1, 1, 6, 1, 1, 1 }
    h.answer(g, 2, { action = "wound", winner = 1, victim = h.IRULAN })
  end
  g:force_dice{ 6 }
  h.answer(g, 2, { action = "wound", winner = 1, victim = h.IRULAN })
  expect_eq(g:alive(h.IRULAN), false)
  expect_eq(g:stat(h.PAUL, "strength"), 5, "the mover won the ambush")
  expect_eq(g:resource(1, "spice"), 3 + 1, "then the spice field's directions")
  expect_eq(g:stat(h.PAUL, "waiting"), 0)
end)

test("a mover beaten in an ambush never follows the directions", function()
  local g = h.game()
  g:move_piece(h.SARDAUKAR, "D4")
  g:set_stat(h.PAUL, "strength", 1)
  h.roll(g, 4, 6)
  g:act{ action = "move_first", who = h.PAUL, to = "D4" }
  g:force_dice{ 6, 1, 1, 1, 1, 2 }
  h.answer(g, 2, { action = "ambush", mover = h.PAUL })
  h.answer(g, 1, { action = "wound", winner = 2, victim = h.PAUL })
  expect_eq(g:alive(h.PAUL), false)
  expect_eq(g:resource(1, "spice"), 3)
  expect_eq(g:stat(h.SARDAUKAR, "strength"), 6)
end)

test("two enemy houses on the space are asked in turn, clockwise from the mover", function()
  local g = h.game()
  g:move_piece(h.IRULAN, "D4")
  g:move_piece(h.KYNES, "D4")
  h.roll(g, 4, 6)
  g:act{ action = "move_first", who = h.PAUL, to = "D4" }
  expect_eq(g:seat_to_act(), 2)
  g:act{ seat = 2, action = "pass" }
  expect_eq(g:seat_to_act(), 3, "blue is asked after yellow declines")
  g:act{ seat = 3, action = "pass" }
  expect_eq(g:resource(1, "spice"), 4)
end)

test("a sword rolls eight-sided dice; a gom jabbar adds an eight-sided die", function()
  local g = h.game()
  h.red_moves(g)
  h.arm(g, "sword", h.PAUL)
  h.arm(g, "gom_jabbar", h.PAUL)
  expect_eq(g:attached(h.PAUL), { "sword", "gom_jabbar" })
  g:pass()
  -- Yellow lands on Paul; red ambushes.
  g:move_piece(h.SHADDAM, "D0")
  h.roll(g, 1, 6)
  g:act{ action = "move_first", who = h.SHADDAM, to = "D1" }
  g:force_dice{ 1, 1, 1, 8, 8, 1, 1, 1 }
  h.answer(g, 1, { action = "ambush", mover = h.SHADDAM })
  local rolled = h.events_named(g, "rolled")
  expect_eq({ rolled[1].roll, rolled[2].roll, rolled[3].roll }, { "attackers", "attackers", "defenders" },
    "the dice are shown by side")
  expect_eq(rolled[1].sides, 8, "Paul's four dice are eight-sided")
  expect_eq(#rolled[1].faces, 4)
  expect_eq(rolled[2].sides, 8, "and the gom jabbar's one more")
  expect_eq(#rolled[2].faces, 1)
  expect_eq(rolled[3].sides, 6, "Shaddam's are six-sided")
end)

test("the winner takes the fallen's equipment: assigned at once unless a duplicate, else into its hand", function()
  local g = h.game()
  h.red_moves(g)
  h.arm(g, "shield", h.PAUL)
  h.arm(g, "stillsuit", h.PAUL)
  g:pass()
  -- Yellow's Sardaukar, already holding a stillsuit, lands on Paul at 1 Strength.
  g:set_stat(h.PAUL, "strength", 1)
  g:move_piece(h.SARDAUKAR, "D0")
  h.roll(g, 1, 6)
  g:act{ action = "move_first", who = h.SARDAUKAR, to = "D1" }
  g:act{ seat = 1, action = "pass" }
  g:act{ action = "keep_die" }
  g:set_hand(2, "equipment", { "stillsuit" })
  g:act{ action = "equip", card = "stillsuit", who = h.SARDAUKAR }
  g:force_dice{ 6, 1, 1, 1, 1, 1 }
  g:act{ action = "fight", who = h.SARDAUKAR, foe = 1 }
  h.answer(g, 1, { action = "wound", winner = 2, victim = h.PAUL })
  expect_eq(g:alive(h.PAUL), false)
  expect_eq(g:attached(h.SARDAUKAR), { "stillsuit", "shield" }, "the shield is assigned at once")
  expect_eq(g:state().seats[2].hand, { "stillsuit" }, "the duplicate stillsuit goes into the hand")
end)
