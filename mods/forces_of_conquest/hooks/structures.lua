-- Attacking structures, and units shooting from them.

local function attack_of(unit)
  local attack = game.stat(unit, "attack")
  local post = game.inside(unit)
  -- A unit standing in an upgraded structure strikes 1 harder.
  if post and game.piece_kind(post) ~= "army" then
    for _, item in ipairs(game.items(post)) do
      if item == "defence_upgrade" then attack = attack + 1 end
    end
  end
  return attack
end

local function destroy(structure)
  local space = game.piece_space(structure)
  if game.piece_kind(structure) == "bridge" then game.set_counter(space, "bridge", 0) end
  game.log("A structure falls on", game.label(space))
  game.remove(structure)   -- and the units standing in it
end

-- The units of the armies on `at` that `wanted(army)` accepts, army by army.
local function units_in_armies(at, wanted)
  local units = {}
  for _, piece in ipairs(game.pieces(at)) do
    if game.piece_kind(piece) == "army" and wanted(piece) then
      for _, unit in ipairs(game.contents(piece)) do units[#units + 1] = unit end
    end
  end
  return units
end

local function hurt(unit, damage)
  local left = game.stat(unit, "defence") - damage
  if left <= 0 then game.remove(unit) else game.set_stat(unit, "defence", left) end
end

-- Every unit of `army` strikes `target` once. While units stand in it, each blow is aimed at
-- one of them (drawn at random), and the structure takes it instead with its protection's
-- chance; once none is left, the structure takes the blows. The units standing in it strike
-- back, each at one unit of the army. At 0 defence the structure falls with those inside.
function assault(army, target)
  local standing = game.contents(target)
  for _, defender in ipairs(standing) do
    local attackers = game.contents(army)
    if #attackers == 0 then break end
    hurt(attackers[game.random(1, #attackers)], attack_of(defender))
  end
  for _, unit in ipairs(game.contents(army)) do
    if not game.alive(target) then break end
    local inside = game.contents(target)
    local blow = game.stat(unit, "attack")
    if #inside > 0 and game.random(1, 100) > game.stat(target, "protection") then
      hurt(inside[game.random(1, #inside)], blow)
    else
      local left = game.stat(target, "hp") - blow
      game.set_stat(target, "hp", math.max(0, left))
      if left <= 0 then destroy(target) end
    end
  end
  if #game.contents(army) == 0 then game.remove(army) end
end

-- The units standing in `post` strike enemy units in the territory `at`, spread over them as
-- evenly as can be (drawn at random).
function volley(post, at)
  local owner = game.piece_owner(post)
  local targets = units_in_armies(at, function(army) return game.piece_owner(army) ~= owner end)
  if #targets == 0 then return end
  local shooters = game.contents(post)
  local hit = game.spread(shooters, targets)
  for i, shooter in ipairs(shooters) do
    if game.alive(hit[i]) then hurt(hit[i], attack_of(shooter)) end
  end
  for _, piece in ipairs(game.pieces(at)) do
    if game.piece_kind(piece) == "army" and #game.contents(piece) == 0 then game.remove(piece) end
  end
end

-- The structures a shot from `from` at a piece touching `at` passes over or lands beside, in the
-- order it meets them: the wall on the border it crosses, then those standing on `at` (never the
-- target itself, nor the shooter's own: a crew aims over its own walls).
local function in_line_of_fire(from, at, target, owner)
  local met = {}
  local function meets(piece)
    if piece and piece ~= target and game.piece_owner(piece) ~= owner then met[#met + 1] = piece end
  end
  meets(game.piece_between(from, at))
  for _, piece in ipairs(game.pieces(at)) do
    local standing = not game.inside(piece) and not game.across(piece)
    if standing and game.piece_kind(piece) ~= "army" and game.stat(piece, "max_hp") > 0 then meets(piece) end
  end
  return met
end

local function strike_structure(structure, damage)
  local left = game.stat(structure, "hp") - damage
  game.set_stat(structure, "hp", math.max(0, left))
  if left <= 0 then destroy(structure) end
end

-- A catapult's shot at `target` (an army, or a structure) striking for `strikes`. A flung unit
-- comes from an army of the shooter's standing with the catapult (drawn at random) and does not
-- live through the landing. Each enemy structure in the line of fire takes the shot instead with
-- its protection as the chance in percent; otherwise it lands: on a unit of the army drawn at
-- random, or on the structure.
function fire(cart, target, strikes, flings_unit)
  local owner = game.piece_owner(cart)
  local from = game.piece_space(cart)
  if flings_unit > 0 then
    local shells = units_in_armies(from, function(army)
      return game.piece_owner(army) == owner and game.stat(army, "battle") == 0
    end)
    local shell = shells[game.random(1, #shells)]
    local army = game.inside(shell)
    game.remove(shell)
    if #game.contents(army) == 0 then game.remove(army) end
  end
  -- Where the shot lands: the target's territory next to the catapult (a wall touches two;
  -- the one beside the catapult, when it touches that one, is crossed over no other wall).
  local at = game.piece_space(target)
  local across = game.across(target)
  if across and game.distance(from, at) ~= 1 then at = across end
  for _, structure in ipairs(in_line_of_fire(from, at, target, owner)) do
    if game.random(1, 100) <= game.stat(structure, "protection") then
      game.log("The shot hits a structure in its way on", game.label(at))
      strike_structure(structure, strikes)
      return
    end
  end
  if game.piece_kind(target) == "army" then
    local units = game.contents(target)
    hurt(units[game.random(1, #units)], strikes)
    if #game.contents(target) == 0 then game.remove(target) end
  else
    strike_structure(target, strikes)
  end
end
