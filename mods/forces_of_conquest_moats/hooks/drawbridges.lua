-- An open drawbridge leaves its wall without protection. Opening one puts the wall's
-- protection aside (`shut_protection`) and closing it gives it back; whatever adds protection
-- while it is open (a defence upgrade's +10%) is put aside too. Run after every action, so the
-- rules that read `protection` (attacks on structures, a catapult's shot) find 0 on every open
-- drawbridge. Nothing to do before the first drawbridge is built.
meeple.on("after_action", function()
  if game.var("drawbridges_built") == 0 then return end
  for _, piece in ipairs(game.pieces()) do
    local state = game.stat(piece, "drawbridge")
    if state > 0 then
      local shown, kept = game.stat(piece, "protection"), game.stat(piece, "shut_protection")
      if state == 2 and shown > 0 then
        game.set_stat(piece, "shut_protection", kept + shown)
        game.set_stat(piece, "protection", 0)
      elseif state == 1 and kept > 0 then
        game.set_stat(piece, "protection", shown + kept)
        game.set_stat(piece, "shut_protection", 0)
      end
    end
  end
end)
