"""A third game, Nim, registered as any game is: its rules, its proto, one engine
registration and one gateway routes table (issue 27 item 6's proof that the engine and
the gateway are generic over their games)."""
