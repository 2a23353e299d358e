import torch
from torch import nn
from torch.profiler import profile, record_function

torch.manual_seed(0)
model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
                      nn.Conv2d(8, 8, 3, padding=1)).eval()
images = torch.randn(2, 3, 16, 16)
cases = {  # what is converted to channels_last: (the model, the input)
    "neither": (False, False),
    "both": (True, True),
    "the model only": (True, False),
    "the input only": (False, True),
}


def copies(event):
    """The shapes of the tensors copied anywhere under a profiler event."""
    found = [tuple(event.input_shapes[0])] if event.name == "aten::copy_" else []
    return found + [shape for child in event.cpu_children for shape in copies(child)]


with torch.inference_mode(), profile(record_shapes=True) as prof:
    for label, (convert_model, convert_input) in cases.items():
        model = model.to(memory_format=torch.channels_last if convert_model else torch.contiguous_format)
        x = images.to(memory_format=torch.channels_last) if convert_input else images
        with record_function(label):
            model(x)
for event in prof.events():
    if event.name in cases:
        shapes = copies(event)
        print(f"converted: {event.name:15} -> copies in one forward: {len(shapes)}", *shapes)
