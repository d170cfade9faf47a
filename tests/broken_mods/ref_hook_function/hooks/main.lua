-- The bonus a push gives.
function bonus(n)
  return 1
end
