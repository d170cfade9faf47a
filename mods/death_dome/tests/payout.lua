-- The payout after each match: 100,000 per control point held, 500,000 for the tower's
-- centre, 100,000 per kill, then 100,000 × the fans' die to every team. Then the arena is
-- reset and the next match opens with the shop; after five matches the most credits win.

local h = helpers

-- Passes every turn until the match ends (`rounds` rounds of two teams).
local function pass_rounds(g, rounds)
  for _ = 1, rounds * 2 do
    g:pass()
    g:pass()
  end
end

test("control points, the tower's centre, kills and the fans pay out after twelve rounds", function()
  local g = h.game{}
  g:set_owner("E02", 1)
  g:set_owner("M02", 1)
  g:set_owner("I08", 2)
  g:set_resource(2, "kills", 3)
  g:move_piece(h.RED_WARRIOR, "K12")
  g:set_stat(h.RED_WARRIOR, "vitae", 2)
  pass_rounds(g, 11)
  expect_eq(g:round(), 12)
  g:force_dice{ 4 }
  pass_rounds(g, 1)
  expect_eq(g:round(), 0, "the shop before the second match")
  expect_eq(g:resource(1, "credits"), 1000000 + 200000 + 400000)
  expect_eq(g:resource(2, "credits"), 1000000 + 500000 + 300000 + 400000)
  expect_eq(g:owner("E02"), nil, "control points are free again")
  expect_eq(g:resource(2, "kills"), 0)
  expect_eq(g:piece_space(h.RED_WARRIOR):match("^[ABC]0[012]$") ~= nil, true, "home again")
  expect_eq(g:stat(h.RED_WARRIOR, "vitae"), 6, "and whole")
end)

test("five matches, then the team with the most credits wins", function()
  local g = h.game{}
  g:set_owner("I08", 2)
  for match = 1, 5 do
    if match > 1 then
      g:pass()
      g:pass()
      h.stay_put(g)
    end
    pass_rounds(g, 12)
  end
  expect_eq(g:over(), true)
  expect_eq(g:outcome(), { result = "win", seats = { 2 } })
end)

test("before every match the team to move first is drawn again; it buys first and moves first", function()
  local drawn_teams = {}
  for seed = 1, 8 do
    local g = h.game{ seed = seed }
    pass_rounds(g, 12)
    local drawn
    for _, e in ipairs(g:events(true)) do
      if e.event == "first_seat_drawn" then drawn = e.seat end
    end
    expect_eq({ g:round(), g:current_seat() }, { 0, drawn }, "the drawn team opens the shop")
    g:pass()
    g:pass()
    h.stay_put(g)
    expect_eq({ g:round(), g:current_seat() }, { 1, drawn }, "and the match")
    drawn_teams[drawn] = true
  end
  expect(drawn_teams[1] and drawn_teams[2], "either team may be drawn")
end)
