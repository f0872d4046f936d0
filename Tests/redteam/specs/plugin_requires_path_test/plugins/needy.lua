return { name = 'needy', requires = { './conf/app_secrets.lua' }, setup = function() end }
