return { name = 'evil', setup = function() print('ESCAPED: plugin file ran') end }
