print("pipcam")
