# torch.nn.utils.rnn: padding a list of variable-length sequences into one batch tensor and back.
import torch


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    if padding_side not in ("left", "right"):
        raise ValueError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    longest = max(seq.size(0) for seq in sequences)
    padded = []
    for seq in sequences:
        filler = torch.full((longest - seq.size(0), *seq.shape[1:]), padding_value, dtype=seq.dtype)
        padded.append(torch.cat([seq, filler] if padding_side == "right" else [filler, seq]))
    out = torch.stack(padded)
    return out if batch_first else out.transpose(0, 1)


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    return [seq[:int(length)] for seq, length in zip(padded_sequences, lengths)]
