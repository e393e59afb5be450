"""War Fleet: the fleet-scale variant (one hex per ship, converted ship cards; rulings W1, W2)."""
