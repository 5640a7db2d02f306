"""What the referee knows: its versions, the challenge types and the building catalog."""
