-- A to-be-closed variable with a comment between `<` and `close`, which Lua reads as a space.
function unused()
  local guard < --[[ not a space, but Lua skips it ]] close > = nil
  while true do end
end
