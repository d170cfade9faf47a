-- Random play (the random computer player at both seats) digs moats and builds, opens and closes
-- drawbridges far more often than a careful player: what it leaves must still hold together.

-- Every drawbridge and moat in the game as the rules want them; gives how many drawbridges are
-- open and closed.
local function check(g)
  local open, closed = 0, 0
  for _, piece in ipairs(g:state().pieces) do
    local stats = piece.stats or {}
    local state = stats.drawbridge or 0
    if state == 2 then
      open = open + 1
      expect_eq(stats.protection or 0, 0, "an open drawbridge protects nothing")
    elseif state == 1 then
      closed = closed + 1
      expect_eq(stats.shut_protection or 0, 0, "a closed drawbridge has its protection back")
    end
    if state > 0 then expect(piece.across ~= nil, "a drawbridge stands between two territories") end
  end
  for _, label in ipairs(g:labels()) do
    if g:counter(label, "moat") > 0 then
      expect(g:counter(label, "barren_until") < g:turn(), "a moat is never barren: " .. label)
    end
  end
  return open, closed
end

test("random play keeps moats and drawbridges whole, and replays", function()
  local used = {}
  for _, seed in ipairs({ 7, 8 }) do
    local g = scenario.new{ seed = seed, seats = 2 }
    for _ = 1, 15 do
      g:play("random", 100)
      check(g)
    end
    for _, e in ipairs(g:events(true)) do
      if e.event == "acted" then used[e.action] = (used[e.action] or 0) + 1 end
    end
    expect_eq(g:replay_hash(), g:hash(), "the same actions from the same seed give the same game")
  end
  for _, action in ipairs({ "dig_moat", "build_drawbridge", "open_drawbridge", "close_drawbridge" }) do
    expect((used[action] or 0) > 0, action .. " was played")
  end
end)
