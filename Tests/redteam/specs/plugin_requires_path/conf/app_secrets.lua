SECRET_LOADED = 'hunter2'
print('ESCAPED: app_secrets.lua ran')
return { name = 'app_secrets', setup = function() end }
