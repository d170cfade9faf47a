-- Drawbridges, on the lake's shore next to seat 1's base: F03 and F04 are plains, G03 and G04
-- shallow water, H03 shallow, G02 a plain and F02 a forest (see _helpers.lua).

local offered, price, refused = helpers.offered, helpers.price, helpers.refused
local between, kind = helpers.between, helpers.kind

-- A game with seat 1's wall of `wall_kind` (wooden by default) between F03 (seat 1's) and G03,
-- with a drawbridge built in it; gives the game and the drawbridge's piece id.
local function shore(wall_kind)
  local g = helpers.game{ stock = 100 }
  g:set_owner("F03", 1)
  local wall = g:place_between(wall_kind or "wooden_wall", 1, "F03", "G03")
  g:act{ action = "build_drawbridge", wall = wall }
  return g, between(g, "F03", "G03")
end

-- Passes seat 1's turn and seat 2's: seat 1's next main stage.
local function next_turn(g)
  g:pass()
  g:pass()
end

test("a drawbridge goes in a wall of the player's between land and shallow water, for 15 wood", function()
  local g = helpers.game{ stock = 100 }
  g:set_owner("F03", 1)
  g:set_owner("F04", 1)
  local wall = g:place_between("wooden_wall", 1, "F03", "G03")
  g:place_between("stone_wall", 1, "F04", "E04")
  g:place_between("wooden_wall", 2, "F04", "G04")
  g:place_between("wooden_wall", 1, "G03", "H03")
  g:set_stat(wall, "hp", 7)
  expect_eq(offered(g, "build_drawbridge", "wall"), { tostring(wall) },
    "not the wall between two plains, nor seat 2's, nor the one between two waters")
  g:act{ action = "build_drawbridge", wall = wall }
  expect_eq(g:resource(1, "wood"), 85)
  expect_eq(g:resource(1, "stone"), 100)
  local gate = between(g, "F03", "G03")
  expect_eq(kind(g, gate), "wooden_drawbridge", "closed when built")
  expect_eq(g:alive(wall), false, "the wall is now the drawbridge's")
  expect_eq(g:piece_owner(gate), 1)
  expect_eq(g:stat(gate, "hp"), 7, "with the wall's defence")
  expect_eq(offered(g, "build_drawbridge", "wall"), {}, "one drawbridge to a wall")
end)

test("a stone wall takes a drawbridge too, and keeps its defence and room for two units", function()
  local g, gate = shore("stone_wall")
  expect_eq(kind(g, gate), "stone_drawbridge")
  expect_eq(g:stat(gate, "hp"), 30)
  expect_eq(g:stat(gate, "protection"), 50)
  g:set_inside(g:place("defender", 1, "F03"), gate)
  local army = helpers.army(g, 1, "F03", { "soldier" })
  expect_eq(offered(g, "garrison", "army", function(r) return r.post == gate end), { tostring(army) },
    "a second unit still fits")
end)

test("no drawbridge without 15 wood, nor in another player's wall or one between two lands", function()
  local g = helpers.game{ stock = 100 }
  g:set_owner("F03", 1)
  local wall = g:place_between("wooden_wall", 1, "F03", "G03")
  g:set_resource(1, "wood", 14)
  refused(g, { action = "build_drawbridge", wall = wall }, "14 wood")
  g:set_resource(1, "wood", 15)
  local inland = g:place_between("wooden_wall", 1, "F03", "E03")
  refused(g, { action = "build_drawbridge", wall = inland }, "between two plains")
  local theirs = g:place_between("wooden_wall", 2, "F04", "G04")
  refused(g, { action = "build_drawbridge", wall = theirs }, "seat 2's wall")
  g:act{ action = "build_drawbridge", wall = wall }
  expect_eq(g:resource(1, "wood"), 0)
  expect_eq(g:resource(1, "stone"), 100, "no stone")
end)

test("closed, the wall lets nobody through, its owner neither", function()
  local g = helpers.game{ stock = 100 }
  g:set_owner("F03", 1)
  local wall = g:place_between("wooden_wall", 1, "F03", "G03")
  expect_eq(price(g, 1, "F03", "G03", { "soldier" }), 4, "before: the water 3 and the owner's wall 1")
  expect_eq(price(g, 1, "F03", "G03", { "ranger" }), 2)
  g:act{ action = "build_drawbridge", wall = wall }
  expect_eq(price(g, 1, "F03", "G03", { "soldier" }), 6, "round by the forest F02 and G02: 2 + 1 + 3")
  expect_eq(price(g, 1, "F03", "G03", { "ranger" }), 3, "round by F02 and G02")
  g:set_turn(2)
  expect_eq(price(g, 2, "G03", "F03", { "ranger" }), 3, "nor an enemy: round by G02 and F02")
end)

test("open, everyone crosses the wall for nothing, and any unit enters the water beside it for 1", function()
  local g, gate = shore()
  g:act{ action = "open_drawbridge", gate = gate }
  local open = between(g, "F03", "G03")
  expect_eq(kind(g, open), "wooden_drawbridge_open")
  expect_eq(price(g, 1, "F03", "G03", { "soldier" }), 1, "the water like a bridge, the wall for nothing")
  expect_eq(price(g, 1, "F03", "G03", { "defender" }), 1, "defenders too, who never enter water")
  expect_eq(price(g, 1, "F03", "H03", { "soldier" }), 4, "the water beyond is as deep as ever: 1, then 3")
  expect_eq(price(g, 1, "G02", "G03", { "defender" }), 1, "the water beside it is crossed for 1 from any side")
  g:set_turn(2)
  expect_eq(price(g, 2, "G03", "F03", { "soldier" }), 1, "an enemy crosses too, onto the plain")
end)

test("a drawbridge is opened or closed once a turn, by its owner only", function()
  local g, gate = shore()
  expect_eq(offered(g, "open_drawbridge", "gate"), { tostring(gate) }, "built this turn, it may still open")
  expect_eq(offered(g, "close_drawbridge", "gate"), {}, "it is closed")
  g:act{ action = "open_drawbridge", gate = gate }
  local open = between(g, "F03", "G03")
  expect_eq(offered(g, "close_drawbridge", "gate"), {}, "not again this turn")
  refused(g, { action = "close_drawbridge", gate = open }, "closing it the turn it opened")
  g:pass()
  expect_eq(g:current_seat(), 2)
  expect_eq(offered(g, "close_drawbridge", "gate"), {}, "seat 2 cannot close seat 1's drawbridge")
  g:pass()
  expect_eq(offered(g, "close_drawbridge", "gate"), { tostring(open) }, "seat 1's next turn")
  g:act{ action = "close_drawbridge", gate = open }
  local shut = between(g, "F03", "G03")
  expect_eq(kind(g, shut), "wooden_drawbridge")
  expect_eq(offered(g, "open_drawbridge", "gate"), {}, "closed this turn: it stays closed")
  next_turn(g)
  expect_eq(offered(g, "open_drawbridge", "gate"), { tostring(shut) })
end)

-- Seat 2's soldier on G03 attacks seat 1's drawbridge, with a defender of seat 1's standing in
-- it, the drawbridge open or closed. The defender strikes back first (the one soldier: a draw of
-- 1); then the soldier's blow, with a roll of 1 of 100: within a wooden wall's 25%, the wall
-- takes it; outside an open one's 0%, the defender (the one inside: a draw of 1) does.
local function assault_with(open)
  local g, gate = shore()
  local army, guard = helpers.army(g, 1, "F03", { "defender" }, 2)
  g:act{ action = "garrison", army = army, post = gate }
  if open then
    g:act{ action = "open_drawbridge", gate = gate }
    gate = between(g, "F03", "G03")
  end
  expect_eq(g:inside(guard[1]), gate)
  g:pass()
  local attackers = helpers.army(g, 2, "G03", { "soldier" }, 4)
  g:force_random(open and { 1, 1, 1 } or { 1, 1 })
  g:act{ action = "assault", army = attackers, target = gate }
  expect_eq(g:forced_random_left(), 0)
  return g, gate, guard[1]
end

test("closed, the wall protects the units standing in it", function()
  local g, gate, guard = assault_with(false)
  expect_eq(g:stat(gate, "protection"), 25)
  expect_eq(g:stat(gate, "hp"), 8, "the wall took the soldier's 2")
  expect_eq(g:stat(guard, "defence"), 4, "the defender's 3 and 1 for standing in a structure, untouched")
end)

test("open, the wall protects nothing: a blow aimed at its unit hits it", function()
  local g, gate, guard = assault_with(true)
  expect_eq(g:stat(gate, "protection"), 0)
  expect_eq(g:stat(gate, "hp"), 10, "the wall took nothing")
  expect_eq(g:stat(guard, "defence"), 2, "the defender took the soldier's 2")
end)

test("the wall's defence, upgrade and units go with it as its drawbridge is built, opened and closed", function()
  local g = helpers.game{ stock = 100 }
  g:set_owner("F03", 1)
  local wall = g:place_between("stone_wall", 1, "F03", "G03")
  g:act{ action = "upgrade", target = wall }
  g:set_stat(wall, "hp", 41)
  local army, guard = helpers.army(g, 1, "F03", { "ranger" }, 6)
  g:act{ action = "garrison", army = army, post = wall }
  local function check(gate, protection, message)
    expect_eq(g:stat(gate, "hp"), 41, message)
    expect_eq(g:stat(gate, "max_hp"), 50, message)
    expect_eq(g:stat(gate, "protection"), protection, message)
    expect_eq(g:items(gate), { "defence_upgrade" }, message)
    expect_eq(g:contents(gate), { guard[1] }, message)
    expect_eq(g:stat(guard[1], "attack"), 3, message .. ": the ranger keeps its +2")
  end
  g:act{ action = "build_drawbridge", wall = wall }
  check(between(g, "F03", "G03"), 60, "built")
  g:act{ action = "open_drawbridge", gate = between(g, "F03", "G03") }
  check(between(g, "F03", "G03"), 0, "opened")
  next_turn(g)
  g:act{ action = "close_drawbridge", gate = between(g, "F03", "G03") }
  check(between(g, "F03", "G03"), 60, "closed again")
end)

test("an upgrade bought while the drawbridge is open protects once it closes", function()
  local g, gate = shore("stone_wall")
  g:act{ action = "open_drawbridge", gate = gate }
  local open = between(g, "F03", "G03")
  g:act{ action = "upgrade", target = open }
  expect_eq(g:stat(open, "protection"), 0, "still open")
  expect_eq(g:stat(open, "hp"), 50)
  next_turn(g)
  g:act{ action = "close_drawbridge", gate = open }
  expect_eq(g:stat(between(g, "F03", "G03"), "protection"), 60, "the stone wall's 50 and the upgrade's 10")
end)

test("a drawbridge falls with its wall, and its water is water again", function()
  local g, gate = shore()
  g:act{ action = "open_drawbridge", gate = gate }
  local open = between(g, "F03", "G03")
  g:set_stat(open, "hp", 2)
  g:pass()
  local attackers = helpers.army(g, 2, "G03", { "soldier" }, 4)
  g:act{ action = "assault", army = attackers, target = open }
  expect_eq(g:alive(open), false)
  expect_eq(between(g, "F03", "G03"), nil)
  g:pass()
  expect_eq(price(g, 1, "F03", "G03", { "defender" }), nil, "defenders cannot enter the water any more")
  expect_eq(price(g, 1, "F03", "G03", { "soldier" }), 3, "and no wall stands in the way")
end)

test("a computer player closes its drawbridge when an enemy army comes near, and opens it for its own", function()
  local g, gate = shore()
  g:act{ action = "open_drawbridge", gate = gate }
  local open = between(g, "F03", "G03")
  -- Seat 1's next turns with nothing to spend, so that only the drawbridge is worth a choice.
  local function poor_turn()
    next_turn(g)
    helpers.stock(g, 1, 0)
  end
  poor_turn()
  g:play("medium", 1)
  expect_eq(kind(g, between(g, "F03", "G03")), "wooden_drawbridge_open", "no enemy near: it stays open")
  expect_eq(g:current_seat(), 2, "seat 1 passed")
  local enemy = helpers.army(g, 2, "I03", { "soldier" })
  g:pass()
  helpers.stock(g, 1, 0)
  g:play("medium", 1)
  expect_eq(kind(g, between(g, "F03", "G03")), "wooden_drawbridge", "an army of seat 2 two steps away: it closes")
  expect_eq(g:alive(open), false)
  g:remove(enemy)
  poor_turn()
  helpers.army(g, 1, "F03", { "soldier" })
  g:play("medium", 1)
  expect_eq(kind(g, between(g, "F03", "G03")), "wooden_drawbridge_open", "for its army waiting beside it")
end)
