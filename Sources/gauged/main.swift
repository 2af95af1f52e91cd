print("gauged")
