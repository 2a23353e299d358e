def gpipe_timeline(stages, micro_batches):
    """Which micro-batch each stage works on in each time slot: all forwards, then all backwards from micro-batch 0."""
    slots = 2 * (micro_batches + stages - 1)
    rows = [["  ."] * slots for _ in range(stages)]
    for mb in range(micro_batches):
        for s in range(stages):
            rows[s][mb + s] = f" F{mb}"
            rows[s][micro_batches + stages - 1 + mb + (stages - 1 - s)] = f" B{mb}"
    return rows


for micro_batches in (1, 4):
    rows = gpipe_timeline(2, micro_batches)
    print(f"{micro_batches} micro-batch(es):")
    for stage, row in enumerate(rows):
        print(f"  device {stage} |{''.join(row)}")

print("micro-batches  busy fraction of each device (2 stages)")
for micro_batches in (1, 2, 4, 8, 32):
    rows = gpipe_timeline(2, micro_batches)
    busy = sum(cell != "  ." for cell in rows[0]) / len(rows[0])
    print(f"{micro_batches:>13}  {busy:.0%}")
