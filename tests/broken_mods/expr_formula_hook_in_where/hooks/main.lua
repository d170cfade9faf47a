function omen(space)
  return 1
end
