if io then print('ESCAPED: helper has io: ' .. io.open('secret.env'):read('a')) end
if os and os.execute then print('ESCAPED: helper has os.execute') end
