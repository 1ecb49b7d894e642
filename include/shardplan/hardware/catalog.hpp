// The hardware catalogue as Boost.Hana type tuples: every chip, and a few example systems.
#pragma once

#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>
#include <boost/hana/unpack.hpp>
#include <array>

#include <shardplan/hardware/amd.hpp>
#include <shardplan/hardware/aws.hpp>
#include <shardplan/hardware/cpu.hpp>
#include <shardplan/hardware/intel.hpp>
#include <shardplan/hardware/nvidia.hpp>
#include <shardplan/hardware/systems.hpp>
#include <shardplan/hardware/tpu.hpp>

namespace shardplan::hardware {

/// Every chip of the catalogue, as `hana::type`s: iterate with `hana::for_each(chips, f)` and
/// `typename decltype(t)::type` to list, compare or search them.
inline constexpr auto chips =
    boost::hana::tuple_t<tpu_v4p, tpu_v5e, tpu_v5p, tpu_v6e, tpu7x, a100_40gb, a100_80gb, h100_sxm,
                         h800, h200, b200, gb200, mi300x, xeon_8480_2s, epyc_9654_2s, h100_pcie,
                         h100_nvl, h200_nvl, l40s, b300, gb300, mi250x, mi325x, mi355x, v100,
                         tpu_v2, tpu_v3, trainium2, gaudi3>;

/// A few instantiated systems, one per family, as `hana::type`s.
inline constexpr auto example_systems =
    boost::hana::tuple_t<systems::tpu_v5p_slice<4, 4, 4>, systems::tpu_v5p_slice<16, 16, 16, 2>,
                         systems::tpu_v5e_slice<16, 16>, systems::tpu_v6e_slice<8, 16>,
                         systems::tpu_v4p_slice<4, 4, 8>, systems::tpu7x_slice<8, 8, 8>,
                         systems::dgx_a100_superpod<140>, systems::dgx_h100_superpod<128>,
                         systems::dgx_b200_superpod<32>, systems::h800_cluster<256>,
                         systems::gb200_nvl72<8>, systems::nvlink_fat_tree<mi300x, 16>>;

}  // namespace shardplan::hardware

namespace shardplan {

/// The figures of every chip in `hardware::chips`, in catalogue order.
inline constexpr auto catalog_chips = boost::hana::unpack(hardware::chips, [](auto... chip) {
  return std::array<chip_figures, sizeof...(chip)>{decltype(chip)::type::figures...};
});

}  // namespace shardplan
