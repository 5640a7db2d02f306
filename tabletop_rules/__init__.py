"""Rules of the tabletop games the referee knows, as plain Python.

One package per game. Nothing here imports grpc, protobuf or flask: the engine and
the gateway are adapters over these modules, and the modules are usable on their own.
"""
