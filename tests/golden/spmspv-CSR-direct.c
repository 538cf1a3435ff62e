/* refused: FindRefused: find='direct' is not valid for x_idx(px) == A_colIdx(pAj) (find over px): direct: the key is not the same index array at a known position */
