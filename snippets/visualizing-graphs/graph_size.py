import torch
from torch import nn
from torchviz import make_dot


class BasicBlock(nn.Module):
    def __init__(self, channels_in, channels_out, stride):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(channels_in, channels_out, 3, stride, 1, bias=False), nn.BatchNorm2d(channels_out), nn.ReLU(),
            nn.Conv2d(channels_out, channels_out, 3, 1, 1, bias=False), nn.BatchNorm2d(channels_out),
        )
        self.shortcut = nn.Sequential()
        if stride != 1 or channels_in != channels_out:
            self.shortcut = nn.Sequential(
                nn.Conv2d(channels_in, channels_out, 1, stride, bias=False), nn.BatchNorm2d(channels_out)
            )

    def forward(self, x):
        return torch.relu(self.body(x) + self.shortcut(x))


def resnet18():
    layers = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(3, 2, 1)]
    channels = 64
    for stage, width in enumerate([64, 128, 256, 512]):
        layers += [BasicBlock(channels, width, 1 if stage == 0 else 2), BasicBlock(width, width, 1)]
        channels = width
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, 1000)]
    return nn.Sequential(*layers)


def count_nodes(model, image_size):
    output = model(torch.randn(2, 3, image_size, image_size))
    graph = make_dot(output, params=dict(model.named_parameters()))
    edges = [line for line in graph.body if "->" in line]
    return len(graph.body) - len(edges), len(edges)


torch.manual_seed(0)
model = resnet18()
print("parameter tensors:", len(list(model.parameters())))
for image_size in (64, 224):
    nodes, edges = count_nodes(model, image_size)
    print(f"{image_size}x{image_size} input: {nodes} nodes, {edges} edges")

# Other properties of the input do change the graph (boxes of one nn.Linear's graph):
linear = nn.Linear(3, 4)


def linear_boxes(x):
    graph = make_dot(linear(x), params=dict(linear.named_parameters()))
    return len([line for line in graph.body if "->" not in line])


with torch.autocast("cpu", torch.bfloat16):
    autocast_boxes = linear_boxes(torch.randn(2, 3))
print("nn.Linear boxes: 2-D input", linear_boxes(torch.randn(2, 3)),
      "| 3-D input", linear_boxes(torch.randn(5, 2, 3)),
      "| input requires grad", linear_boxes(torch.randn(2, 3, requires_grad=True)),
      "| bfloat16 autocast", autocast_boxes)
