"""Stage 1, notation: tensor index notation statements and their parser."""
