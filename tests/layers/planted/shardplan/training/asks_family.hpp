// Planted: a rule that asks the plan's framework family instead of reading its profile.
constexpr bool planted(int framework) { return framework == training_framework::torchtitan; }
