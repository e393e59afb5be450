"""Drawing games and cards for people: terminal text now, SVG later."""
