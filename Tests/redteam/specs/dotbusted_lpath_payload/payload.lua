print("ESCAPED", io.open("secret.env"):read("a")) return {}
