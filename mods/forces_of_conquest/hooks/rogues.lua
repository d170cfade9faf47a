-- Wild rogue armies, and units sent from one army to the next territory.

local KINDS = { "soldier", "ranger", "defender" }

local function rogue_count()
  local count = 0
  for _, piece in ipairs(game.pieces()) do
    if game.piece_kind(piece) == "army" and game.piece_owner(piece) == nil then count = count + 1 end
  end
  return count
end

-- The rogue stage: while there are fewer rogue armies than the most allowed, a wild one appears
-- with the chance `wild_chance` (in percent) on a random territory nobody owns and nothing
-- stands on, other than deep water: one to five units of random kinds (at most two rangers),
-- acting on this player's turns from the next.
function wild_rogues(seat)
  if rogue_count() >= game.var("max_rogues") or game.var("wild_chance") <= 0 then return end
  if game.random(1, 100) > game.var("wild_chance") then return end
  local free = {}
  for space = 1, game.space_count() do
    if game.owner(space) == nil and #game.pieces(space) == 0 and game.terrain(space) ~= "deep" then
      free[#free + 1] = space
    end
  end
  if #free == 0 then return end
  local at = free[game.random(1, #free)]
  local army = game.place("army", nil, at)
  local rangers = 0
  for _ = 1, game.random(1, 5) do
    local kind = KINDS[game.random(1, #KINDS)]
    if kind == "ranger" and rangers == 2 then kind = "soldier" end
    if kind == "ranger" then rangers = rangers + 1 end
    local unit = game.place_inside(kind, nil, army)
    -- Hardened or worn by the wild: defence one more or one less, at random.
    game.set_stat(unit, "defence", game.stat(unit, "defence") + game.random(-1, 1))
  end
  game.set_stat(army, "acts_on", seat)
  game.set_stat(army, "mp_left", 0)
  game.log("A wild rogue army appears on", game.label(at))
end

-- Splitting: `unit` leaves `army` for the neighbouring territory `to` with `mp` movement points
-- left; it joins the player's army there when one has room (the joined army keeps the smaller
-- movement points), or becomes an army of its own.
function send_unit(army, unit, to, mp)
  local seat = game.piece_owner(army)
  for _, piece in ipairs(game.pieces(to)) do
    if game.piece_kind(piece) == "army" and game.piece_owner(piece) == seat and game.stat(piece, "battle") == 0 then
      local ok = pcall(game.set_inside, unit, piece)
      if ok then
        game.set_stat(piece, "mp_left", math.min(game.stat(piece, "mp_left"), mp))
        return
      end
    end
  end
  local new = game.place("army", seat, to)
  game.set_inside(unit, new)
  game.set_stat(new, "mp_left", mp)
end
