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
  local targets = {}
  for _, piece in ipairs(game.pieces(at)) do
    if game.piece_kind(piece) == "army" and game.piece_owner(piece) ~= owner then
      for _, unit in ipairs(game.contents(piece)) do targets[#targets + 1] = unit end
    end
  end
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
