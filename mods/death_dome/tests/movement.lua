-- Moving: up to the unit's Movement, diagonals too, through teammates but not enemies, never
-- through a wall, into lava or into another team's base; onto the tower only from a bridge.
-- A unit phase is one unit's move and action, in either order, the move never split.

local h = helpers

test("a unit moves up to its Movement, diagonally too", function()
  local g = h.game{ at = { [h.RED_WARRIOR] = "I04" } }
  local to = h.destinations(g, h.RED_WARRIOR)
  expect(h.has(to, "M04"), "four squares along the row")
  expect(h.has(to, "M00"), "four squares along a diagonal")
  expect(not h.has(to, "N04"), "five is beyond a Movement of 4")
end)

test("teammates are walked through, enemies are not: a bridge held by an enemy closes the tower", function()
  local g = h.game{ at = { [h.RED_WARRIOR] = "I05", [h.RED_SCOUT] = "I06" } }
  local to = h.destinations(g, h.RED_WARRIOR)
  expect(h.has(to, "I08"), "through the scout on the bridge to the tower's centre")
  expect(not h.has(to, "I06"), "not onto the teammate's square")
  g:move_piece(h.RED_SCOUT, "C01")
  g:move_piece(h.BLUE_WARRIOR, "I06")
  to = h.destinations(g, h.RED_WARRIOR)
  expect(not h.has(to, "H07") and not h.has(to, "I07") and not h.has(to, "I08"),
    "the enemy on the bridge closes the way; the other bridges are out of reach")
end)

test("lava, jails and another team's base are never entered; the tower only from a bridge", function()
  local g = h.game{ at = { [h.RED_WARRIOR] = "F05", [h.RED_SCOUT] = "N03" } }
  local to = h.destinations(g, h.RED_WARRIOR)
  expect(not h.has(to, "G06") and not h.has(to, "G07"), "lava")
  expect(h.has(to, "H07"), "by the bridge G08 onto the tower's edge")
  local scout = h.destinations(g, h.RED_SCOUT)
  expect(not h.has(scout, "O02") and not h.has(scout, "P01"), "blue's base")
  expect(not h.has(scout, "I00"), "the jail on the top edge")
  expect(h.has(scout, "N00"), "the floor beside blue's base")
end)

test("a wall is never walked through, nor its corner cut", function()
  local g = h.game{ at = { [h.RED_WARRIOR] = "F02" } }
  g:set_stat(h.RED_WARRIOR, "movement", 1)
  local to = h.destinations(g, h.RED_WARRIOR)
  expect(not h.has(to, "G02"), "the tall wall between F02 and G02")
  expect(not h.has(to, "G03"), "the wall runs on between F03 and G03: the diagonal would cut through it")
  expect(h.has(to, "G01"), "round the wall's end")
end)

test("a unit phase is one unit's move and one action, in either order; the second may use it again", function()
  -- No cards in hand: a Rally, Second Wind or Quick Step would keep the phase open.
  local g = h.game{ at = { [h.RED_WARRIOR] = "E03" }, hands = { [1] = {} } }
  g:act{ action = "move", who = h.RED_WARRIOR, to = "E02" }
  h.refused(g, { action = "move", who = h.RED_SCOUT, to = "D01" })
  h.refused(g, { action = "move", who = h.RED_WARRIOR, to = "E03" }, "`moving` was already taken")
  g:act{ action = "capture", who = h.RED_WARRIOR }
  expect_eq(g:owner("E02"), 1)
  -- Move and action spent: the second unit phase begins, and may use the warrior again.
  expect_eq(g:state().phase, "second")
  g:act{ action = "move", who = h.RED_WARRIOR, to = "E04" }
  g:pass()
  expect_eq(g:current_seat(), 2, "two unit phases make the turn")
end)

test("the action may come first; then the move ends the phase's use of the unit", function()
  local g = h.game{ at = { [h.RED_WARRIOR] = "E02" }, hands = { [1] = {} } }
  g:act{ action = "capture", who = h.RED_WARRIOR }
  h.refused(g, { action = "move", who = h.RED_SCOUT, to = "D01" })
  g:act{ action = "move", who = h.RED_WARRIOR, to = "G04" }
  expect_eq(g:state().phase, "second", "the first unit phase is over")
end)
