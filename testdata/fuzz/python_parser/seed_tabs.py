class M(torch.nn.Module):
	def forward(self, x):
		try:
			return [a for a in x if a]
		except (A, B) as e:
			raise
