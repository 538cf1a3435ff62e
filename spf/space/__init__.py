"""Stage 2, iteration spaces: UF sets and relations (islpy), properties and their Z3 encoding,
layouts' levels, iteration spaces of statements, dependences and enumeration."""
