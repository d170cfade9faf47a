-- The houses, their characters with the text's Strength and Guile, and where they start.

local h = helpers

test("the twelve characters start on their houses' sietches with the text's Strength and Guile", function()
  local g = h.game()
  local expected = {
    { "paul", 1, 4, 3 }, { "leto", 1, 3, 4 }, { "gurney", 1, 5, 3 },
    { "shaddam", 2, 3, 4 }, { "irulan", 2, 4, 3 }, { "sardaukar", 2, 5, 3 },
    { "kynes", 3, 3, 4 }, { "chani", 3, 4, 3 }, { "stilgar", 3, 5, 3 },
    { "baron", 4, 3, 4 }, { "feyd", 4, 4, 3 }, { "rabban", 4, 5, 3 },
  }
  local sietch = { "D0", "D6", "D12", "D18" }
  local pieces = g:state().pieces
  for id, want in ipairs(expected) do
    expect_eq(pieces[id].kind, want[1])
    expect_eq(pieces[id].owner, want[2])
    expect_eq(g:piece_space(id), sietch[want[2]], want[1] .. " starts on its sietch")
    expect_eq(g:stat(id, "strength"), want[3], want[1] .. "'s Strength")
    expect_eq(g:stat(id, "guile"), want[4], want[1] .. "'s Guile")
  end
  for seat = 1, 4 do
    expect_eq(g:resource(seat, "spice"), 3)
    expect_eq(g:resource(seat, "harvesters"), 1)
  end
end)

test("three houses play as four: the green sietch stays empty", function()
  local g = h.game{ seats = 3 }
  expect_eq(#g:state().pieces, 9)
  expect_eq(g:piece_space(h.STILGAR), "D12")
end)

test("the desert and the castle are walked clockwise only, and meet only at the sietches", function()
  local g = h.game()
  expect_eq(g:neighbors("D1"), { "D2" }, "a desert space leads only on")
  expect_eq(g:neighbors("C1"), { "C2" }, "a castle space leads only on")
  local sietch = g:neighbors("D6")
  table.sort(sietch)
  expect_eq(sietch, { "C3", "D7" }, "a sietch leads on and into the castle")
  local gate = g:neighbors("C3")
  table.sort(gate)
  expect_eq(gate, { "C4", "D6" }, "a gate leads on and out to its sietch")
  expect_eq(g:neighbors("I0"), { "I1" }, "investment spaces are reached from nowhere")
end)

test("a house with neither spice nor harvesters takes 1 spice before it moves; one with either does not", function()
  local g = h.game()
  g:set_resource(2, "spice", 0)
  g:set_resource(2, "harvesters", 0)
  g:set_resource(3, "spice", 0)
  g:set_resource(3, "harvesters", 1)
  h.roll(g, 2, 5)
  g:act{ action = "move_both", who = h.PAUL, to = "D7" }
  g:pass()
  expect_eq(g:current_seat(), 2)
  expect_eq(g:resource(2, "spice"), 1, "yellow has nothing: the bank gives 1")
  h.roll(g, 1, 4)
  g:act{ action = "move_both", who = h.SHADDAM, to = "D11" }
  g:pass()
  expect_eq(g:resource(3, "spice"), 0, "blue has a harvester: nothing from the bank")
end)
