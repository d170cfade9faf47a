-- Line of sight and reach: walls and the tower block; from the floor only the tower's edge
-- facing the unit is seen, never its centre; from the tower the short walls are seen over;
-- ranged weapons reach 9, close combat the adjacent squares; a weapon may ignore sight.

local h = helpers

test("from the floor the tower's near edge is seen, its centre and far edge are not", function()
  local g = h.game{ at = {
    [h.RED_GUNNER] = "I03", [h.BLUE_WARRIOR] = "I07", [h.BLUE_SCOUT] = "I08", [h.BLUE_GUNNER] = "I09",
  } }
  expect_eq(h.targets(g, h.RED_GUNNER), { h.BLUE_WARRIOR }, "the edge facing the gunner, over the bridge")
end)

test("from the tower the short walls below are seen over; from the floor they hide what is behind", function()
  local g = h.game{ at = { [h.RED_GUNNER] = "H07", [h.BLUE_WARRIOR] = "H03" } }
  expect_eq(h.targets(g, h.RED_GUNNER), { h.BLUE_WARRIOR }, "over the short wall below H04")
  g:move_piece(h.RED_GUNNER, "H05")
  expect_eq(h.targets(g, h.RED_GUNNER), {}, "floor to floor across the short wall")
  g:move_piece(h.RED_GUNNER, "I05")
  expect_eq(h.targets(g, h.RED_GUNNER), { h.BLUE_WARRIOR }, "beside the wall's end the line is clear")
end)

test("tall walls block, even from the tower; the tower blocks floor to floor", function()
  local g = h.game{ at = { [h.RED_GUNNER] = "E02", [h.BLUE_WARRIOR] = "H02" } }
  expect_eq(h.targets(g, h.RED_GUNNER), {}, "the tall wall between F02 and G02")
  g:move_piece(h.RED_GUNNER, "F08")
  g:move_piece(h.BLUE_WARRIOR, "L08")
  expect_eq(h.targets(g, h.RED_GUNNER), {}, "across the tower")
end)

test("ranged weapons reach 9 squares, close combat weapons the adjacent ones", function()
  local g = h.game{ at = {
    [h.RED_GUNNER] = "D04", [h.BLUE_WARRIOR] = "M04", [h.RED_WARRIOR] = "D11", [h.BLUE_SCOUT] = "E12",
  } }
  expect_eq(h.targets(g, h.RED_GUNNER), { h.BLUE_WARRIOR }, "9 squares along row 4")
  g:move_piece(h.BLUE_WARRIOR, "N04")
  expect_eq(h.targets(g, h.RED_GUNNER), {}, "10 is out of range")
  expect_eq(h.targets(g, h.RED_WARRIOR), { h.BLUE_SCOUT }, "the club reaches the adjacent square")
  g:move_piece(h.BLUE_SCOUT, "F12")
  expect_eq(h.targets(g, h.RED_WARRIOR), {})
end)

test("a grenade launcher ignores line of sight", function()
  local g = h.game{ at = { [h.RED_SCOUT] = "E02", [h.BLUE_WARRIOR] = "H02" } }
  g:give(h.RED_SCOUT, "grenade_launcher")
  expect_eq(h.targets(g, h.RED_SCOUT), { h.BLUE_WARRIOR }, "lobbed over the tall wall")
end)
