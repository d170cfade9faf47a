-- Computer players on the mod's own random map: a game is meant to end when one side is wiped
-- out; the turn limit (4000 character turns, then the side with more health wins) is only a
-- safety net.
--
-- The seeds below once ran to the turn limit: the move score compared straight-line
-- distances (`distance`, which ignores water) to the nearest enemy and cancelled any move that
-- increased it, so a character whose way to the enemy leads round a lake sat at a local
-- minimum for the rest of the game (seed 11: the police character on H58, 21 steps from the
-- nearest terrorist, where every tile a roll of 6 reaches is 22 or more). Since commit c1eb732
-- the score counts steps of a walk over land (`walk_distance`).

local function losers(outcome, seats)
  local won = {}
  for _, seat in ipairs(outcome.seats) do won[seat] = true end
  local out = {}
  for seat = 1, seats do
    if not won[seat] then out[#out + 1] = seat end
  end
  return out
end

test("medium players finish by wiping out a side, before the turn limit", function()
  for _, case in ipairs{ { seed = 11, seats = 4 }, { seed = 12, seats = 4 }, { seed = 16, seats = 8 } } do
    local what = "seed " .. case.seed .. ", " .. case.seats .. " seats"
    local g = scenario.new{ seed = case.seed, seats = case.seats }
    g:play("medium", 40000)
    expect(g:over(), what .. ": the game did not finish")
    expect(g:turn() < 4000, what .. ": the game ran to the turn limit (turn " .. g:turn() .. ")")
    local outcome = g:outcome()
    ---@cast outcome -nil
    expect_eq(outcome.result, "win", what)
    for _, seat in ipairs(losers(outcome, case.seats)) do
      expect_eq(g:piece_of(seat), nil, what .. ": seat " .. seat .. " of the losing side has a character left")
    end
  end
end)
