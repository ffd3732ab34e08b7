"""ONNX weights of the ball model, its model card and the scripts that train it."""
