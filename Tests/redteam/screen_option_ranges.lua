-- --screen checks what it is given (docs/cli.md): a screen's displayScale is
-- a scale from 1 to 10, so 0, -1 and 1e308 are usage errors.
-- args: --screen displayScale=1e308
-- exit: 2
-- stderr: a screen's displayScale is a scale from 1 to 10
print('ESCAPED: accepted')
