"""Computer vision: frames in; detections, tracks, strokes and events out."""
