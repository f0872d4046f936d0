import TraitLabSwiftImport
print(parse("let x = 1").statements.count)
