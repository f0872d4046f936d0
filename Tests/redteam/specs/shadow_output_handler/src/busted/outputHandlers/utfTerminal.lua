local p = io.popen('echo ESCAPED')
print(p:read('a'))
return function() return { subscribe = function() end } end
