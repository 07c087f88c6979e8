// fftgen-vkfft-check: runs the VkFFT peer on its own minimal Vulkan device, checks every size
// against FFTW in double and prints a table (optionally JSON in the bench schema, see README).
// On lavapipe it proves the in-process VkFFT integration works; on a GPU the same tool with a
// full-size buffer gives the VkFFT column of the peer comparison.
#include "vkfft_peer.hpp"

#include <fftw3.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace fftgen::bench {
namespace {

struct Options {
    std::vector<uint32_t> sizes = {64, 128, 256, 512, 1024, 2048, 4096};
    uint64_t elements = uint64_t{1} << 16;  // per buffer; small so lavapipe stays quick
    uint32_t sample_rows = 64;              // transforms checked against FFTW
    int trials = 7;
    int calls = 20;
    uint32_t device_index = 0;
    int queue_family = -1;  // -1: the rule of the fftgen runtime's vk::Device
    double max_error = 1e-5;  // 0: report only
    bool r2c = false;         // real input: N reals in, N/2 + 1 complex out
    std::string json_path;
};

constexpr uint32_t kMaxSampleElements = uint32_t{1} << 22;

const char* kUsage =
    "usage: fftgen-vkfft-check [options]\n"
    "  --sizes N,N,...     transform lengths (default 64,128,...,4096)\n"
    "  --elements E        complex elements' worth of input bytes; batch = max(1, E / N), or\n"
    "                      max(1, 2E / N) reals with --r2c (default 65536; 67108864 = 512 MiB,\n"
    "                      the PERF.md figure)\n"
    "  --r2c               real-input transforms (R2C: N reals in, N/2 + 1 complex out); GB/s\n"
    "                      counts the reals read and the half spectrum written\n"
    "  --sample-rows R     transforms checked against FFTW (default 64, and at most\n"
    "                      max(1, 2^22 / N) so the check stays quick)\n"
    "  --trials T          timed trials, the median is reported (default 7)\n"
    "  --calls C           back-to-back calls per trial (default 20)\n"
    "  --device I          physical device index (default 0)\n"
    "  --queue-family Q    queue family index (default: a compute-only family with timestamps\n"
    "                      if there is one, else the first compute family: the fftgen runtime's\n"
    "                      rule, so fftgen-bench compare and fftgen-vk bench use the same queue)\n"
    "  --max-error X       fail (exit 1) when rel. L2 error exceeds X; 0 reports only (default 1e-5)\n"
    "  --json PATH         also write the results as JSON\n";

[[noreturn]] void usage_error(const std::string& what) {
    std::fprintf(stderr, "fftgen-vkfft-check: error: %s\n%s", what.c_str(), kUsage);
    std::exit(1);
}

uint64_t parse_uint(const std::string& text, const char* option) {
    try {
        size_t used = 0;
        const unsigned long long value = std::stoull(text, &used, 0);
        if (used != text.size()) throw std::invalid_argument(text);
        return value;
    } catch (const std::exception&) {
        usage_error(std::string(option) + " expects a non-negative integer, got '" + text + "'");
    }
}

Options parse_options(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "-h" || arg == "--help") {
            std::fputs(kUsage, stdout);
            std::exit(0);
        }
        if (arg == "--r2c") {
            o.r2c = true;
            continue;
        }
        if (i + 1 >= argc) usage_error("unknown option or missing value: " + arg);
        const std::string value = argv[++i];
        if (arg == "--sizes") {
            o.sizes.clear();
            std::stringstream list(value);
            for (std::string item; std::getline(list, item, ',');) {
                const uint64_t n = parse_uint(item, "--sizes");
                if (n == 0 || n > UINT32_MAX) usage_error("--sizes entries must be in 1..2^32-1");
                o.sizes.push_back(static_cast<uint32_t>(n));
            }
            if (o.sizes.empty()) usage_error("--sizes is empty");
        } else if (arg == "--elements") {
            o.elements = parse_uint(value, "--elements");
        } else if (arg == "--sample-rows") {
            o.sample_rows = static_cast<uint32_t>(std::max<uint64_t>(1, parse_uint(value, "--sample-rows")));
        } else if (arg == "--trials") {
            o.trials = static_cast<int>(std::max<uint64_t>(1, parse_uint(value, "--trials")));
        } else if (arg == "--calls") {
            o.calls = static_cast<int>(std::max<uint64_t>(1, parse_uint(value, "--calls")));
        } else if (arg == "--queue-family") {
            o.queue_family = static_cast<int>(std::min<uint64_t>(INT32_MAX, parse_uint(value, "--queue-family")));
        } else if (arg == "--device") {
            o.device_index = static_cast<uint32_t>(parse_uint(value, "--device"));
        } else if (arg == "--max-error") {
            try {
                o.max_error = std::stod(value);
            } catch (const std::exception&) {
                usage_error("--max-error expects a number, got '" + value + "'");
            }
        } else if (arg == "--json") {
            o.json_path = value;
        } else {
            usage_error("unknown option: " + arg);
        }
    }
    if (o.r2c) {
        for (const uint32_t n : o.sizes) {
            if (n % 2) usage_error("--r2c needs even sizes (the reals travel in pairs), not " + std::to_string(n));
        }
    }
    return o;
}

void check_vk(VkResult result, const char* what) {
    if (result != VK_SUCCESS) {
        throw std::runtime_error(std::string(what) + " failed (VkResult " +
                                 std::to_string(static_cast<int>(result)) + ")");
    }
}

// The smallest device that can run VkFFT: one compute queue and a command pool.
class MinimalDevice {
public:
    VulkanHandles handles;
    std::string device_name;
    std::string driver;

    uint32_t queue_flags = 0;

    MinimalDevice(uint32_t device_index, int queue_family) {
        VkApplicationInfo app{};
        app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
        app.pApplicationName = "fftgen-vkfft-check";
        app.apiVersion = VK_API_VERSION_1_2;
        VkInstanceCreateInfo instance_info{};
        instance_info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
        instance_info.pApplicationInfo = &app;
        check_vk(vkCreateInstance(&instance_info, nullptr, &handles.instance), "vkCreateInstance");

        uint32_t count = 0;
        check_vk(vkEnumeratePhysicalDevices(handles.instance, &count, nullptr), "vkEnumeratePhysicalDevices");
        std::vector<VkPhysicalDevice> devices(count);
        check_vk(vkEnumeratePhysicalDevices(handles.instance, &count, devices.data()),
                 "vkEnumeratePhysicalDevices");
        if (device_index >= count) {
            throw std::runtime_error("no Vulkan device with index " + std::to_string(device_index) +
                                     " (" + std::to_string(count) + " found)");
        }
        handles.physical_device = devices[device_index];

        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(handles.physical_device, &props);
        device_name = props.deviceName;
        driver = std::to_string(VK_API_VERSION_MAJOR(props.driverVersion)) + "." +
                 std::to_string(VK_API_VERSION_MINOR(props.driverVersion)) + "." +
                 std::to_string(VK_API_VERSION_PATCH(props.driverVersion));
        if (props.apiVersion >= VK_API_VERSION_1_2) {
            // The driver's own name and version string say more than the packed number
            // (NVIDIA packs its version differently from the Vulkan convention).
            VkPhysicalDeviceDriverProperties driver_props{};
            driver_props.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
            VkPhysicalDeviceProperties2 props2{};
            props2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
            props2.pNext = &driver_props;
            vkGetPhysicalDeviceProperties2(handles.physical_device, &props2);
            driver = std::string(driver_props.driverName) + " " + driver_props.driverInfo;
        }

        uint32_t family_count = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(handles.physical_device, &family_count, nullptr);
        std::vector<VkQueueFamilyProperties> families(family_count);
        vkGetPhysicalDeviceQueueFamilyProperties(handles.physical_device, &family_count, families.data());
        // The queue family the fftgen runtime's vk::Device picks (fftgen-vk bench, fftgen-bench
        // compare): a compute-only family with timestamps (NVIDIA's async compute queue) where
        // there is one, else the first compute family. Before, this took the first compute family
        // (NVIDIA: graphics + compute), so VkFFT alone and VkFFT in compare ran on different
        // queues. --queue-family picks one by index instead.
        uint32_t family = UINT32_MAX;
        if (queue_family >= 0) {
            if (static_cast<uint32_t>(queue_family) >= family_count ||
                !(families[queue_family].queueFlags & VK_QUEUE_COMPUTE_BIT)) {
                throw std::runtime_error("queue family " + std::to_string(queue_family) +
                                         " does not exist or has no compute");
            }
            family = static_cast<uint32_t>(queue_family);
        } else {
            for (uint32_t i = 0; i < family_count; ++i) {
                if (!(families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)) continue;
                if (family == UINT32_MAX ||
                    (!(families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) &&
                     (families[family].queueFlags & VK_QUEUE_GRAPHICS_BIT) &&
                     families[i].timestampValidBits > 0)) {
                    family = i;
                }
            }
        }
        if (family == UINT32_MAX) throw std::runtime_error("device has no compute queue");
        queue_flags = families[family].queueFlags;
        handles.queue_family_index = family;

        const float priority = 1.0f;
        VkDeviceQueueCreateInfo queue_info{};
        queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
        queue_info.queueFamilyIndex = family;
        queue_info.queueCount = 1;
        queue_info.pQueuePriorities = &priority;
        VkDeviceCreateInfo device_info{};
        device_info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
        device_info.queueCreateInfoCount = 1;
        device_info.pQueueCreateInfos = &queue_info;
        check_vk(vkCreateDevice(handles.physical_device, &device_info, nullptr, &handles.device),
                 "vkCreateDevice");
        vkGetDeviceQueue(handles.device, family, 0, &handles.queue);

        VkCommandPoolCreateInfo pool_info{};

        pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
        pool_info.queueFamilyIndex = family;
        check_vk(vkCreateCommandPool(handles.device, &pool_info, nullptr, &handles.command_pool),
                 "vkCreateCommandPool");
    }

    MinimalDevice(const MinimalDevice&) = delete;
    MinimalDevice& operator=(const MinimalDevice&) = delete;

    ~MinimalDevice() {
        if (handles.device) {
            vkDeviceWaitIdle(handles.device);
            if (handles.command_pool) vkDestroyCommandPool(handles.device, handles.command_pool, nullptr);
            vkDestroyDevice(handles.device, nullptr);
        }
        if (handles.instance) vkDestroyInstance(handles.instance, nullptr);
    }
};

// ||out - ref||_2 / ||ref||_2 with ref from FFTW in double on the same (float) input: complex
// transforms of n, or with `r2c` real ones (input: pairs of reals; output: n/2 + 1 per transform).
double rel_l2_error(uint32_t n, bool r2c, const std::vector<std::complex<float>>& input,
                    const std::vector<std::complex<float>>& output) {
    const int length = static_cast<int>(n);
    const size_t values = r2c ? 2 * input.size() : input.size();  // reals or complex values
    const int rows = static_cast<int>(values / n);
    const int out_length = r2c ? length / 2 + 1 : length;
    const size_t total = static_cast<size_t>(rows) * out_length;
    fftw_complex* ref = fftw_alloc_complex(total);
    fftw_plan plan;
    if (r2c) {
        double* in = fftw_alloc_real(values);
        for (size_t i = 0; i < input.size(); ++i) {
            in[2 * i] = input[i].real();
            in[2 * i + 1] = input[i].imag();
        }
        plan = fftw_plan_many_dft_r2c(1, &length, rows, in, nullptr, 1, length, ref, nullptr, 1,
                                      out_length, FFTW_ESTIMATE);
        fftw_execute(plan);
        fftw_free(in);
    } else {
        fftw_complex* in = fftw_alloc_complex(values);
        for (size_t i = 0; i < values; ++i) {
            in[i][0] = input[i].real();
            in[i][1] = input[i].imag();
        }
        plan = fftw_plan_many_dft(1, &length, rows, in, nullptr, 1, length, ref, nullptr, 1,
                                  length, FFTW_FORWARD, FFTW_ESTIMATE);
        fftw_execute(plan);
        fftw_free(in);
    }
    double diff = 0.0;
    double norm = 0.0;
    for (size_t i = 0; i < total; ++i) {
        const double dr = output[i].real() - ref[i][0];
        const double di = output[i].imag() - ref[i][1];
        diff += dr * dr + di * di;
        norm += ref[i][0] * ref[i][0] + ref[i][1] * ref[i][1];
    }
    fftw_destroy_plan(plan);
    fftw_free(ref);
    return norm > 0.0 ? std::sqrt(diff / norm) : std::sqrt(diff);
}

int run_check(int argc, char** argv) {
    const Options options = parse_options(argc, argv);
    MinimalDevice device(options.device_index, options.queue_family);
    std::printf("VkFFT peer on %s (%s), queue family %u (%s)\n", device.device_name.c_str(),
                device.driver.c_str(), device.handles.queue_family_index,
                (device.queue_flags & VK_QUEUE_GRAPHICS_BIT) ? "graphics + compute" : "compute only");
    if (options.r2c) std::printf("R2C: GB/s = (reals read + half spectrum written) / time per call\n");
    std::printf("%9s %9s %10s %12s %10s %10s\n", "N", "batch", "plan ms", "ms/call", "GB/s", "rel L2");

    std::string command;
    for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
    nlohmann::json report = {{"schema", "fftgen-bench/1"}, {"system", "VkFFT"},
                             {"device", device.device_name}, {"driver", device.driver},
                             {"queue_family", device.handles.queue_family_index},
                             {"command", command}, {"copy_floor_gbps", nullptr},
                             {"results", nlohmann::json::array()}};

    std::mt19937_64 rng(20261122);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    int failures = 0;
    for (const uint32_t n : options.sizes) {
        // The input buffer holds E complex values' bytes: E / N transforms, or 2E / N of N reals.
        const uint64_t batch64 = std::max<uint64_t>(1, options.elements * (options.r2c ? 2 : 1) / n);
        const uint32_t batch = static_cast<uint32_t>(std::min<uint64_t>(batch64, UINT32_MAX));
        // The FFTW check costs host time and memory; a few million elements are plenty.
        const uint32_t rows = std::min({batch, options.sample_rows, std::max<uint32_t>(1, kMaxSampleElements / n)});
        PeerCase what;
        what.shape = {n};
        what.real_input = options.r2c;
        // Pairs of floats: complex values, or two reals each for R2C.
        std::vector<std::complex<float>> input(rows * what.input_pairs());
        for (auto& x : input) x = {normal(rng), normal(rng)};

        const PeerResult r = run_vkfft(device.handles, what, batch, input, options.trials, options.calls);
        nlohmann::json row = {{"system", "VkFFT"}, {"n", n}, {"batch", batch},
                              {"transform", options.r2c ? "r2c" : "c2c"}};
        if (!r.ok) {
            std::printf("%9u %9u   failed: %s\n", n, batch, r.error.c_str());
            row.update({{"ms", nullptr}, {"gbps", nullptr}, {"rel_l2", nullptr}, {"error", r.error}});
            report["results"].push_back(row);
            ++failures;
            continue;
        }
        const double error = rel_l2_error(n, options.r2c, input, r.output);
        const bool bad = !(error <= options.max_error) && options.max_error > 0.0;
        failures += bad ? 1 : 0;
        std::printf("%9u %9u %10.1f %12.5f %10.2f %10.2e%s%s\n", n, batch, r.plan_ms, r.ms, r.gbps,
                    error, r.gpu_timestamps ? "" : "  (wall clock)", bad ? "  FAIL" : "");
        std::fflush(stdout);
        row.update({{"ms", r.ms}, {"gbps", r.gbps}, {"rel_l2", std::isfinite(error) ? nlohmann::json(error) : nlohmann::json()},
                    {"plan_ms", r.plan_ms}, {"trial_ms", r.trial_ms}, {"gpu_timestamps", r.gpu_timestamps},
                    {"traffic", r.input_bytes + r.output_bytes},
                    {"sample_rows", rows}});
        report["results"].push_back(row);
    }

    if (!options.json_path.empty()) {
        std::ofstream out(options.json_path);
        out << report.dump(2) << "\n";
        if (!out) throw std::runtime_error("cannot write " + options.json_path);
    }
    return failures ? 1 : 0;
}

}  // namespace
}  // namespace fftgen::bench

int main(int argc, char** argv) {
    try {
        return fftgen::bench::run_check(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fftgen-vkfft-check: error: %s\n", e.what());
        return 2;
    }
}
