-- The random map and the starting position: equal shares of territories and dice for every
-- seat count 2..8, every territory dealt, 1..8 dice each, one connected map.

local seeds = { 1, 2, 3, 17, 2024 }

-- The largest multiple of `seats` that is at most 32.
local function territories_for(seats)
  return 32 - 32 % seats
end

-- Per seat: territories held and dice on them.
local function tally(g, seats)
  local spaces, dice = {}, {}
  for seat = 1, seats do
    spaces[seat], dice[seat] = 0, 0
  end
  for _, label in ipairs(g:labels()) do
    local owner = g:owner(label)
    if owner then
      spaces[owner] = spaces[owner] + 1
      dice[owner] = dice[owner] + g:counter(label, "dice")
    end
  end
  return spaces, dice
end

test("territory count is 32 rounded down to a multiple of the seat count", function()
  local expected = { [2] = 32, [3] = 30, [4] = 32, [5] = 30, [6] = 30, [7] = 28, [8] = 32 }
  for seats = 2, 8 do
    expect_eq(territories_for(seats), expected[seats], "formula for " .. seats)
    for _, seed in ipairs(seeds) do
      local g = scenario.new{ seed = seed, seats = seats }
      expect_eq(g:space_count(), expected[seats], ("seats %d seed %d"):format(seats, seed))
      expect_eq(#g:labels(), expected[seats], ("labels, seats %d seed %d"):format(seats, seed))
    end
  end
end)

test("every seat starts with the same territories and dice, 3 dice per territory", function()
  for seats = 2, 8 do
    for _, seed in ipairs(seeds) do
      local g = scenario.new{ seed = seed, seats = seats }
      local where = ("seats %d seed %d"):format(seats, seed)
      -- Nothing has happened yet: still the first turn (of the seat drawn to start), no
      -- reinforcement.
      expect_eq(g:turn(), 1, where .. ": first turn")
      local share = g:space_count() // seats
      local spaces, dice = tally(g, seats)
      for seat = 1, seats do
        expect_eq(spaces[seat], share, where .. ": territories of seat " .. seat)
        expect_eq(g:owned(seat), share, where .. ": owned() of seat " .. seat)
        expect_eq(dice[seat], 3 * share, where .. ": dice of seat " .. seat)
        expect_eq(g:resource(seat, "reserve"), 0, where .. ": reserve of seat " .. seat)
        expect_eq(g:seat_status(seat), "active", where .. ": status of seat " .. seat)
      end
    end
  end
end)

test("every territory is owned and holds 1 to 8 dice", function()
  for seats = 2, 8 do
    for _, seed in ipairs(seeds) do
      local g = scenario.new{ seed = seed, seats = seats }
      for _, label in ipairs(g:labels()) do
        local where = ("seats %d seed %d territory %s"):format(seats, seed, label)
        local owner = g:owner(label)
        expect(owner ~= nil, where .. " has no owner")
        expect(owner >= 1 and owner <= seats, where .. " owner out of range")
        local dice = g:counter(label, "dice")
        expect(dice >= 1 and dice <= 8, where .. " holds " .. dice .. " dice")
      end
    end
  end
end)

test("the map is one connected landmass with symmetric borders", function()
  for seats = 2, 8 do
    for _, seed in ipairs(seeds) do
      local g = scenario.new{ seed = seed, seats = seats }
      local where = ("seats %d seed %d"):format(seats, seed)
      local labels = g:labels()
      for _, label in ipairs(labels) do
        local around = g:neighbors(label)
        expect(#around >= 1, where .. ": territory " .. label .. " has no neighbour")
        for _, other in ipairs(around) do
          local back = false
          for _, x in ipairs(g:neighbors(other)) do
            if x == label then back = true end
          end
          expect(back, where .. ": " .. label .. " borders " .. other .. " but not the reverse")
        end
      end
      ---@type table<string, boolean>, string[], integer
      local seen, queue, count = { [labels[1]] = true }, { labels[1] }, 1
      while #queue > 0 do
        local here = table.remove(queue)
        for _, other in ipairs(g:neighbors(here)) do
          if not seen[other] then
            seen[other] = true
            count = count + 1
            queue[#queue + 1] = other
          end
        end
      end
      expect_eq(count, #labels, where .. ": territories reachable from the first")
    end
  end
end)

test("the same seed gives the same map and deal; another seed a different one", function()
  local a = scenario.new{ seed = 42, seats = 4 }
  local b = scenario.new{ seed = 42, seats = 4 }
  local c = scenario.new{ seed = 43, seats = 4 }
  expect_eq(a:hash(), b:hash())
  expect_eq(a:state().spaces, b:state().spaces)
  expect(a:hash() ~= c:hash(), "seeds 42 and 43 gave the same game")
end)

test("seat counts outside 2..8 are refused", function()
  expect_error(function() scenario.new{ seed = 1, seats = 1 } end, "2 to 8 seats")
  expect_error(function() scenario.new{ seed = 1, seats = 9 } end, "2 to 8 seats")
end)

test("the setup deals dice only through the rules: events show 1 + 2 per territory", function()
  local g = scenario.new{ seed = 7, seats = 3 }
  local owners, placed = 0, 0 ---@type integer, number
  for _, e in ipairs(g:events(true)) do
    if e.event == "turn_started" then break end
    if e.event == "owner_changed" then owners = owners + 1 end
    if e.event == "counter_changed" and e.counter == "dice" then placed = placed + (e.to - e.from) end
  end
  expect_eq(owners, 30, "every territory dealt once")
  expect_eq(placed, 3 * 30, "dice placed during the setup")
end)

test("the starting dice are spread at random, not evenly", function()
  local counts = {}
  for seed = 1, 10 do
    local g = scenario.new{ seed = seed, seats = 2 }
    for _, label in ipairs(g:labels()) do
      local d = g:counter(label, "dice")
      counts[d] = (counts[d] or 0) + 1
    end
  end
  expect(counts[1] and counts[1] > 0, "no territory started with 1 die")
  expect(counts[3] and counts[3] > 0, "no territory started with 3 dice")
  local high = 0
  for d = 5, 8 do high = high + (counts[d] or 0) end
  expect(high > 0, "no territory started with 5 or more dice")
end)
