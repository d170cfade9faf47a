-- A weak table made after `setmetatable` checked its metatable.
function forever()
  local mt = {}
  local cache = setmetatable({}, mt)
  mt.__mode = "k"
  return #cache
end
