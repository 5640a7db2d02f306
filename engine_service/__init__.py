"""The referee engine: a stateless gRPC server over the rules in :mod:`tabletop_rules`.

Each game has a servicer (thin: it converts and delegates) and one module that converts
between protobuf messages and the rules' plain values.
"""
