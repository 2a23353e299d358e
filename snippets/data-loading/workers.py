import torch
from torch.utils.data import DataLoader, Dataset, get_worker_info


class Squares(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, index):
        info = get_worker_info()
        worker = info.id if info is not None else "main"
        return torch.tensor(index**2), str(worker)


if __name__ == "__main__":
    for num_workers in (0, 2):
        loader = DataLoader(Squares(), batch_size=2, num_workers=num_workers)
        print(f"num_workers={num_workers}")
        for values, workers in loader:
            print("  batch", values.tolist(), "from worker", workers[0])
    print("workers start by:", torch.multiprocessing.get_start_method())
