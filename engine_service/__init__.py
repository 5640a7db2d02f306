"""The referee engine: a stateless gRPC server over the rules in :mod:`tabletop_rules`.

Each game has a servicer (thin: it converts and delegates) and one module, ``convert``,
that it converts between protobuf messages and the rules' plain values through: it gathers
the game's readers of requests and writers of answers, one module a message family.
"""
